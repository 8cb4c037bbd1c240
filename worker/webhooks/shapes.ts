// What the webhook routes answer, as the OpenAPI document declares it. Built on first use.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { isoTime } from "../openapi/shapes.ts";

export const secretInfo = lazy(() => z.object({ configured: z.boolean(), createdAt: isoTime().nullable() }));
export const projectWebhook = lazy(() => z.object({ slug: z.string(), webhookUrl: z.string().nullable() }));

const attempt = () => z.object({ n: z.number().int(), at: isoTime(), status: z.number().int().nullable(), error: z.string().nullable(), durationMs: z.number() });

export const delivery = lazy(() =>
  z.object({
    id: z.string(),
    renderId: z.string(),
    slug: z.string(),
    event: z.enum(["render.done", "render.failed", "render.cancelled", "batch.done", "batch.failed", "batch.cancelled"]),
    url: z.string(),
    status: z.enum(["pending", "delivered", "failed", "refused"]),
    createdAt: isoTime(),
    nextAttemptAt: isoTime().nullable(),
    attempts: z.array(attempt()),
  }),
);
