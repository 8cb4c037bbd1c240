// The render-node protocol (tag `node`): called by render nodes with their node key, never by users. Declared so
// the document covers every route the Worker serves. The request schemas here describe the bodies as the node
// routes validate them today (worker/routes/node.ts keeps its own copies; they move to core/protocol/ this round).
import { z } from "zod";
import { fileEntry } from "./shapes.ts";
import { json, pathParams, type Operation } from "./operation.ts";

const job = pathParams("id");
const jobFile = pathParams("id", "path");
const cancelled = z.object({ cancelled: z.boolean() }).loose();
const binary = { description: "the file's bytes", body: { media: "application/octet-stream", schema: z.string().meta({ format: "binary" }) } };

export const nodeOperations: Operation[] = [
  {
    method: "post", path: "/api/node/jobs/claim", operationId: "nodeClaimJob", summary: "Claim the next queued job (long poll up to ?wait seconds)", tag: "node", access: "node",
    query: z.object({ wait: z.string().optional().describe("seconds to wait for a job (default 20)") }),
    body: { json: z.object({ nodeId: z.string().max(100).optional(), kinds: z.array(z.enum(["render", "snapshot", "check", "preview"])).min(1).optional() }) },
    responses: {
      200: json(z.object({ job: z.object({ id: z.string(), kind: z.string(), slug: z.string(), options: z.record(z.string(), z.unknown()), composition: z.unknown(), leaseMs: z.number() }) }), "a job"),
      204: { description: "no job within the wait" },
    },
  },
  { method: "get", path: "/api/node/jobs/{id}/files", operationId: "nodeListJobFiles", summary: "The files of the job's project (and cached fonts)", tag: "node", access: "node", params: job, responses: { 200: json(z.object({ files: z.array(fileEntry.pick({ path: true, size: true, mtime: true })) }), "the files") }, errors: [404] },
  { method: "get", path: "/api/node/jobs/{id}/files/{path}", operationId: "nodeReadJobFile", summary: "One file of the job's project", tag: "node", access: "node", params: jobFile, responses: { 200: binary }, errors: [404] },
  {
    method: "put", path: "/api/node/jobs/{id}/files/{path}", operationId: "nodeWriteJobFile", summary: "Write a snapshot file (snapshots/ only)", tag: "node", access: "node", params: jobFile, body: { raw: ["application/octet-stream", "image/png"] },
    responses: { 200: json(z.object({ ok: z.literal(true), path: z.string(), size: z.number().int() }), "written") }, errors: [403, 404, 409, 411, 413],
  },
  {
    method: "post", path: "/api/node/jobs/{id}/progress", operationId: "nodeReportProgress", summary: "Log lines and stage; renews the lease; answers whether to stop", tag: "node", access: "node", params: job,
    body: { json: z.object({ lines: z.array(z.string().max(4000)).max(1000), stage: z.string().max(300).optional() }), required: true }, responses: { 200: json(cancelled, "whether the job was cancelled") }, errors: [400, 404],
  },
  {
    method: "post", path: "/api/node/jobs/{id}/preview", operationId: "nodeReportPreview", summary: "The preview server's port", tag: "node", access: "node", params: job,
    body: { json: z.object({ port: z.number().int().min(1).max(65_535) }), required: true }, responses: { 200: json(cancelled, "whether the preview was cancelled") }, errors: [400, 404],
  },
  {
    method: "put", path: "/api/node/jobs/{id}/output", operationId: "nodeUploadOutput", summary: "Upload the rendered video", tag: "node", access: "node", params: job, body: { raw: ["video/mp4", "video/webm", "video/quicktime", "image/gif", "application/octet-stream"] },
    responses: { 200: json(z.object({ ok: z.literal(true), size: z.number().int() }), "stored") }, errors: [404, 409, 411, 413],
  },
  {
    method: "post", path: "/api/node/jobs/{id}/complete", operationId: "nodeCompleteJob", summary: "Finish the job (ok, or an error)", tag: "node", access: "node", params: job,
    body: { json: z.object({ ok: z.boolean(), error: z.string().max(20_000).optional(), result: z.unknown().optional() }), required: true },
    responses: { 200: json(z.object({ ok: z.boolean() }).loose(), "recorded") }, errors: [400, 404],
  },
];
