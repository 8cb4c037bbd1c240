// Batches: one render per row of variables, one after another (worker/renders/batch-routes.ts).
import * as z from "zod";
import { batchRequestSchema } from "../../core/render/batch-request.ts";
import { BatchStateSchema, NoBatchSchema } from "../../core/protocol/render-state.ts";
import { delivery } from "./agent-tools.ts";
import { json, slugParam, type Operation } from "./operation.ts";

export const batchOperations: Operation[] = [
  {
    method: "post", path: "/api/projects/{slug}/batch", operationId: "startBatch",
    summary: "Start a batch: one render, and one file, per row of variables, one after another (a POST while a batch runs returns it; 409 render_in_progress while a plain render runs). Each row is a render in every way (split across nodes, strict, its own events and webhook); a failed row does not stop the batch, which then ends failed. Option webhookUrl: also POSTed batch.<status> when the batch ends (see webhooks), else the project's webhook.",
    tag: "renders", access: "user", params: slugParam, body: { json: batchRequestSchema }, headers: z.object({ "Idempotency-Key": z.string().optional() }),
    responses: { 202: json(BatchStateSchema, "started: the first row is queued"), 200: json(BatchStateSchema, "the batch already in progress, unchanged") },
    errors: [400, 404, 409, 422, 429],
  },
  {
    method: "get", path: "/api/projects/{slug}/batch", operationId: "getBatch", summary: "The current or last batch with each row's status, file and error, or { status: none }", tag: "renders", access: "user", params: slugParam,
    responses: { 200: json(z.union([BatchStateSchema, NoBatchSchema]), "the batch") }, errors: [404],
  },
  {
    method: "delete", path: "/api/projects/{slug}/batch", operationId: "cancelBatch", summary: "Cancel the batch: the running row's render is cancelled, the rows not started are cancelled", tag: "renders", access: "user", params: slugParam,
    responses: { 200: json(z.object({ stopped: z.boolean().describe("whether a batch was in progress"), batch: BatchStateSchema.nullable() }), "the batch as it ended") }, errors: [404],
  },
  {
    method: "get", path: "/api/projects/{slug}/batch/deliveries", operationId: "listBatchDeliveries", summary: "The current or last batch's own webhook deliveries (batch.<status>) with every attempt; each row's render has its own at /api/renders/{id}/deliveries", tag: "webhooks", access: "user", params: slugParam,
    responses: { 200: json(z.object({ batchId: z.string(), deliveries: z.array(delivery) }), "the deliveries") }, errors: [404],
  },
];
