// The agents' endpoints: the MCP server, /llms.txt and the skill, and render webhooks.
import * as z from "zod";
import { isoTime } from "./shapes.ts";
import { json, pathParams, slugParam, type Operation } from "./operation.ts";

const jsonRpc = z.unknown().describe("a JSON-RPC 2.0 message or batch (MCP Streamable HTTP)");
const secretInfo = z.object({ configured: z.boolean(), createdAt: isoTime.nullable() });
const projectWebhook = z.object({ slug: z.string(), webhookUrl: z.string().nullable() });
const attempt = z.object({ n: z.number().int(), at: isoTime, status: z.number().int().nullable(), error: z.string().nullable(), durationMs: z.number() });
/** One webhook delivery with its attempts (a render's, or a batch's: openapi/batches.ts). */
export const delivery = z.object({
  id: z.string(),
  renderId: z.string(),
  slug: z.string(),
  event: z.enum(["render.done", "render.failed", "render.cancelled"]),
  url: z.string(),
  status: z.enum(["pending", "delivered", "failed", "refused"]),
  createdAt: isoTime,
  nextAttemptAt: isoTime.nullable(),
  attempts: z.array(attempt),
});
const notStateless = { 405: { description: "the MCP server is stateless: POST only", body: { json: z.object({ error: z.string() }) } } };

export const agentToolOperations: Operation[] = [
  {
    method: "post", path: "/mcp", operationId: "mcp", summary: "The MCP server (Streamable HTTP, stateless): a personal token sees every tool, a bot key the idea tools",
    tag: "agents", access: "writer", body: { json: jsonRpc },
    responses: {
      200: { description: "the JSON-RPC answer, as an event stream (with progress notifications) or JSON", body: { media: "text/event-stream", schema: z.string() } },
      202: { description: "a notification or response was accepted" },
    },
    errors: [400, 403, 406, 413, 415],
  },
  { method: "get", path: "/mcp", operationId: "mcpStream", summary: "No standalone stream: the server is stateless (405)", tag: "agents", access: "writer", responses: notStateless },
  { method: "delete", path: "/mcp", operationId: "mcpEndSession", summary: "No session to end: the server is stateless (405)", tag: "agents", access: "writer", responses: notStateless },
  {
    method: "get", path: "/llms.txt", operationId: "llmsTxt", summary: "The index for language models (llms.txt)", tag: "agents", access: "public",
    responses: { 200: { description: "text", body: { media: "text/plain", schema: z.string() } } },
  },
  {
    method: "get", path: "/skill.md", operationId: "agentSkill", summary: "The agent skill: the whole loop, composition rules, worked examples", tag: "agents", access: "public",
    responses: { 200: { description: "Markdown", body: { media: "text/markdown", schema: z.string() } } },
  },
  {
    method: "post", path: "/api/webhooks/secret", operationId: "rotateWebhookSecret", summary: "A new webhook signing secret, shown only here (the old one stops signing)", tag: "webhooks", access: "user",
    responses: { 201: json(z.object({ secret: z.string().startsWith("whsec_"), createdAt: isoTime }), "the new secret") },
  },
  {
    method: "get", path: "/api/webhooks/secret", operationId: "getWebhookSecretInfo", summary: "Whether a signing secret exists, and since when", tag: "webhooks", access: "user",
    responses: { 200: json(secretInfo, "the secret's state") },
  },
  {
    method: "get", path: "/api/projects/{slug}/webhook", operationId: "getProjectWebhook", summary: "The project's webhook", tag: "webhooks", access: "user", params: slugParam,
    responses: { 200: json(projectWebhook, "the webhook, or null") }, errors: [404],
  },
  {
    method: "put", path: "/api/projects/{slug}/webhook", operationId: "setProjectWebhook", summary: "Set the project's webhook: POSTed a signed render.done, render.failed or render.cancelled (see webhooks) when a render without its own webhookUrl ends", tag: "webhooks", access: "user", params: slugParam,
    body: { json: z.strictObject({ url: z.string() }) },
    responses: { 200: json(projectWebhook, "the webhook") }, errors: [400, 404],
  },
  {
    method: "delete", path: "/api/projects/{slug}/webhook", operationId: "deleteProjectWebhook", summary: "Remove the project's webhook", tag: "webhooks", access: "user", params: slugParam,
    responses: { 200: json(projectWebhook, "no webhook") }, errors: [404],
  },
  {
    method: "get", path: "/api/renders/{id}/deliveries", operationId: "listRenderDeliveries", summary: "A render's webhook deliveries with every attempt", tag: "webhooks", access: "user", params: pathParams("id"),
    responses: { 200: json(z.object({ renderId: z.string(), deliveries: z.array(delivery) }), "the deliveries") }, errors: [404],
  },
];
