// The render-node protocol (tag `node`): called by render nodes with their node key, never by users. Declared so
// the document covers every route the Worker serves, with the protocol's own schemas (core/protocol/), which the
// Worker's node routes and the node's client validate with. Node keys themselves are managed by admins (node-keys).
import * as z from "zod";
import {
  CancelledResponseSchema, ClaimRequestSchema, ClaimResponseSchema, CompleteRequestSchema, CompleteResponseSchema,
  FilesResponseSchema, MAX_CLAIM_WAIT_S, OutputResponseSchema, PlanRequestSchema, PlanResponseSchema,
  PreviewRequestSchema, ProgressRequestSchema, ProjectFileWriteResponseSchema,
} from "../../core/protocol/node-routes.ts";
import { createNodeKeyBody } from "../renders/farm/node-key-routes.ts";
import { json, pathParams, type Operation } from "./operation.ts";

const job = pathParams("id");
const jobFile = pathParams("id", "path");
const binary = { description: "the file's bytes", body: { media: "application/octet-stream", schema: z.string().meta({ format: "binary" }) } };

export const nodeOperations: Operation[] = [
  {
    method: "post", path: "/api/node/jobs/claim", operationId: "nodeClaimJob", summary: `Claim the next queued job (long poll up to ?wait seconds, at most ${MAX_CLAIM_WAIT_S})`, tag: "node", access: "node",
    query: z.object({ wait: z.string().optional().describe(`seconds to wait for a job (at most ${MAX_CLAIM_WAIT_S})`) }),
    body: { json: ClaimRequestSchema },
    responses: { 200: json(ClaimResponseSchema, "a job"), 204: { description: "no job within the wait" } },
  },
  { method: "get", path: "/api/node/jobs/{id}/files", operationId: "nodeListJobFiles", summary: "The files of the job's project (and cached fonts)", tag: "node", access: "node", params: job, responses: { 200: json(FilesResponseSchema, "the files") }, errors: [404] },
  { method: "get", path: "/api/node/jobs/{id}/files/{path}", operationId: "nodeReadJobFile", summary: "One file of the job's project", tag: "node", access: "node", params: jobFile, responses: { 200: binary }, errors: [404] },
  {
    method: "put", path: "/api/node/jobs/{id}/files/{path}", operationId: "nodeWriteJobFile", summary: "Write a snapshot file (snapshots/ only)", tag: "node", access: "node", params: jobFile, body: { raw: ["application/octet-stream", "image/png"] },
    responses: { 200: json(ProjectFileWriteResponseSchema, "written") }, errors: [403, 404, 409, 411, 413],
  },
  {
    method: "post", path: "/api/node/jobs/{id}/progress", operationId: "nodeReportProgress", summary: "Log lines, stage and structured progress; renews the lease; answers whether to stop", tag: "node", access: "node", params: job,
    body: { json: ProgressRequestSchema, required: true }, responses: { 200: json(CancelledResponseSchema, "whether the job was cancelled or given to another node") }, errors: [400, 404],
  },
  {
    method: "post", path: "/api/node/jobs/{id}/plan", operationId: "nodePostPlan", summary: "A render job's plan (frames, rate, size, audio); answers how the render is split", tag: "node", access: "node", params: job,
    body: { json: PlanRequestSchema, required: true }, responses: { 200: json(PlanResponseSchema, "the segments (one: render it whole here)") }, errors: [400, 404, 409],
  },
  {
    method: "get", path: "/api/node/jobs/{id}/segments/{index}", operationId: "nodeReadSegment", summary: "One rendered segment, for the node holding the render's join job", tag: "node", access: "node", params: pathParams("id", "index"),
    responses: { 200: binary }, errors: [404],
  },
  {
    method: "post", path: "/api/node/jobs/{id}/preview", operationId: "nodeReportPreview", summary: "The preview server's port", tag: "node", access: "node", params: job,
    body: { json: PreviewRequestSchema, required: true }, responses: { 200: json(CancelledResponseSchema, "whether the preview was cancelled") }, errors: [400, 404],
  },
  {
    method: "put", path: "/api/node/jobs/{id}/output", operationId: "nodeUploadOutput", summary: "Upload the rendered video (or a segment)", tag: "node", access: "node", params: job, body: { raw: ["video/mp4", "video/webm", "video/quicktime", "image/gif", "video/x-matroska", "application/octet-stream"] },
    responses: { 200: json(OutputResponseSchema, "stored") }, errors: [404, 409, 411, 413],
  },
  {
    method: "post", path: "/api/node/jobs/{id}/complete", operationId: "nodeCompleteJob", summary: "Finish the job (ok, or an error)", tag: "node", access: "node", params: job,
    body: { json: CompleteRequestSchema, required: true },
    responses: { 200: json(CompleteResponseSchema.loose(), "recorded") }, errors: [400, 404],
  },
];

const nodeKey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
  online: z.boolean(),
});

/** Render node keys: admins only (ADMIN_USER_IDS), by session cookie or personal token. */
export const nodeKeyOperations: Operation[] = [
  { method: "get", path: "/api/node-keys", operationId: "listNodeKeys", summary: "Render node keys (admins), with when each node was last heard from", tag: "nodes", access: "user", responses: { 200: json(z.object({ nodeKeys: z.array(nodeKey) }), "the keys (never the key itself)") }, errors: [403] },
  {
    method: "post", path: "/api/node-keys", operationId: "createNodeKey", summary: "Issue a render node key (admins); the key is shown once", tag: "nodes", access: "user",
    body: { json: createNodeKeyBody, required: true }, responses: { 201: json(nodeKey.extend({ key: z.string().describe("stn_…, shown once") }), "the new key") }, errors: [400, 403, 409],
  },
  { method: "delete", path: "/api/node-keys/{id}", operationId: "revokeNodeKey", summary: "Revoke a render node key (admins); the node's next call is 401", tag: "nodes", access: "user", params: pathParams("id"), responses: { 200: json(z.object({ revoked: z.literal(true), id: z.string() }), "revoked") }, errors: [403, 404] },
];
