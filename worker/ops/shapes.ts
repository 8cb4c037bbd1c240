// What GET /api/health answers, as the OpenAPI document declares it. Built on first use. Pure (zod and core/ only):
// the dashboard reads its session from this answer with the same schema.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { publicUser } from "../openapi/shapes.ts";

export const health = lazy(() =>
  z.object({
    ok: z.literal(true),
    version: z.string(),
    build: z
      .object({ id: z.string(), tag: z.string().nullable(), uploadedAt: z.string().nullable() })
      .nullable()
      .describe("The deployed Worker version (wrangler's version id, tag and upload time); null where not configured"),
    baseUrl: z.string(),
    login: z.object({ github: z.boolean(), google: z.boolean(), dev: z.boolean() }),
    authorized: z.boolean(),
    user: publicUser().nullable(),
    admin: z.boolean().describe("the caller is an admin (ADMIN_USER_IDS): the dashboard shows render node keys"),
  }),
);
