// The OpenAPI 3.1 `webhooks` section: what the studio POSTs to a render's webhook when the render ends
// (worker/webhooks/notify-render-ended.ts builds the body, webhook-outbox.ts signs and sends it). One entry per
// event type, so an agent looking up "render.done" finds the body, the Standard Webhooks headers and what its
// receiver should answer. Where the URL comes from: the render's `webhookUrl` option (POST …/render), else the
// project's webhook (PUT /api/projects/{slug}/webhook).
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import * as z from "zod";
import { BatchRowStateSchema, BatchStateSchema, RenderStateSchema } from "../../core/protocol/render-state.ts";
import { isoTime } from "./shapes.ts";

export const WEBHOOK_EVENTS = ["render.done", "render.failed", "render.cancelled"] as const;
/** A batch's end (worker/webhooks/notify-batch-ended.ts); each of its rows is also delivered as a render. */
export const BATCH_WEBHOOK_EVENTS = ["batch.done", "batch.failed", "batch.cancelled"] as const;

const SIGNATURE_HEADERS = z.object({
  "webhook-id": z.string().describe("the delivery's id: the same on every retry of it (deduplicate on it)"),
  "webhook-timestamp": z.string().describe("seconds since the epoch when this attempt was signed"),
  "webhook-signature": z
    .string()
    .describe('"v1,<base64 HMAC-SHA256>" of "<webhook-id>.<webhook-timestamp>.<body>" with your signing secret (POST /api/webhooks/secret); verify with any Standard Webhooks library'),
});

const payloadOf = (event: (typeof WEBHOOK_EVENTS)[number]) =>
  z.object({
    type: z.literal(event),
    timestamp: isoTime().describe("when the render ended"),
    data: RenderStateSchema
      .extend({
        downloadUrl: z.string().nullable().describe("the absolute download URL (GET it with your token) when done, else null"),
        posterUrl: z.string().nullable().describe("the absolute URL of its poster image (GET it with your token) when done with one, else null (posterError says why)"),
      })
      .describe("the render's final state, as GET /api/renders/{id} answers it"),
  });

const batchPayloadOf = (event: (typeof BATCH_WEBHOOK_EVENTS)[number]) =>
  z.object({
    type: z.literal(event),
    timestamp: isoTime().describe("when the batch ended"),
    data: BatchStateSchema.extend({
      rows: z.array(BatchRowStateSchema.extend({ downloadUrl: z.string().nullable().describe("the absolute download URL of a done row's file, else null") })),
    }).describe("the batch's final state, as GET /api/projects/{slug}/batch answers it"),
  });

const RETRIES = "Answer 2xx within 10 s; otherwise it is retried after 5 s, 30 s, 2 min, 10 min, 30 min and 2 h with the same webhook-id. Redirects are not followed.";

const batchWebhooks: RouteConfig[] = BATCH_WEBHOOK_EVENTS.map((event) => ({
  method: "post",
  path: event,
  operationId: `webhookBatch${event.split(".")[1]!.replace(/^./, (c) => c.toUpperCase())}`,
  summary: `A batch ended ${event.split(".")[1]}: sent to the batch's webhookUrl option, else its project's webhook`,
  description: `Sent once the batch's last row has ended (done: every row done; failed: some row failed; cancelled: DELETE …/batch), signed per Standard Webhooks. ${RETRIES} Every attempt is listed at GET /api/projects/{slug}/batch/deliveries.`,
  tags: ["webhooks"],
  request: {
    headers: SIGNATURE_HEADERS,
    body: { required: true, content: { "application/json": { schema: batchPayloadOf(event) } } },
  },
  responses: { 200: { description: "received (any 2xx); anything else, or no answer within 10 s, is retried" } },
}));

/** The webhooks of the document, as zod-to-openapi takes them (the path is the webhook's name). */
export const WEBHOOKS: RouteConfig[] = [...WEBHOOK_EVENTS.map((event): RouteConfig => ({
  method: "post",
  path: event,
  operationId: `webhook${event.split(".")[1]!.replace(/^./, (c) => c.toUpperCase())}`,
  summary: `A render ended ${event.split(".")[1]}: sent to the render's webhookUrl option, else its project's webhook`,
  description:
    "Sent once the render ends, signed per Standard Webhooks. Answer 2xx within 10 s; otherwise it is retried after 5 s, 30 s, " +
    "2 min, 10 min, 30 min and 2 h with the same webhook-id. Redirects are not followed. Every attempt is listed at GET /api/renders/{id}/deliveries.",
  tags: ["webhooks"],
  request: {
    headers: SIGNATURE_HEADERS,
    body: { required: true, content: { "application/json": { schema: payloadOf(event) } } },
  },
  responses: { 200: { description: "received (any 2xx); anything else, or no answer within 10 s, is retried" } },
})), ...batchWebhooks];
