// What GET /api/me/apps answers, as the OpenAPI document declares it. Built on first use. Pure (zod and core/ only):
// the dashboard's Connected apps card is typed from it.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { isoTime } from "../openapi/shapes.ts";

export const connectedApp = lazy(() =>
  z.object({
    id: z.string(),
    clientName: z.string().describe("as the app named itself (not verified unless it has a metadata document)"),
    redirectHost: z.string(),
    scopes: z.array(z.string()),
    createdAt: isoTime(),
    expiresAt: isoTime().nullable(),
  }),
);

/** GET /api/me/apps. */
export const connectedAppList = lazy(() => z.object({ apps: z.array(connectedApp()) }));
