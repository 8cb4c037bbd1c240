// One MCP exchange: a server with the tools the caller's credential allows, connected to a transport that answers
// this one request (stateless) and redacts credentials from everything it sends. Loaded by mcp-route.ts on the
// first /mcp request, not at startup: the SDK and its JSON-schema compiler are a large share of the Worker's
// startup CPU, and most requests never touch MCP.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../http/context.ts";
import { configOf } from "../config/config-of.ts";
import { VERSION } from "../ops/health-routes.ts";
import { registerAccountTools } from "./account-tools.ts";
import { registerIdeaTools } from "./idea-tools.ts";
import { MCP_INSTRUCTIONS } from "./instructions.ts";
import { registerProjectResources } from "./project-resources.ts";
import { registerProjectTools } from "./project-tools.ts";
import { registerPrompts } from "./prompts.ts";
import { CredentialRedactingTransport, redactCredentials } from "./redact-credentials.ts";
import { registerRenderTools } from "./render-tools.ts";
import { registerBatchTools } from "./batch-tools.ts";
import { refusedResourceReads } from "./resource-uri.ts";
import { restClient } from "./rest-client.ts";
import { carryGrant, type GrantCaller } from "../oauth/oauth-caller.ts";
import { scopedServer } from "../oauth/tool-scopes.ts";
import { contentOrigin } from "../http/origins.ts";
import { registerPlayerResource } from "./player-resource.ts";
import { plainToolCalls } from "./task-calls.ts";
import { studioTaskStore } from "./task-store.ts";
import { loadDocTexts } from "../docs/doc-text.ts";

/** What the server says of tasks: tools/call may be a task (render, render_batch, snapshot), and tasks are listed and cancelled. */
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/**
 * Who calls: a personal token (every tool), a bot key (the idea tools), or an OAuth grant (the tools its scopes
 * allow, worker/oauth/tool-scopes.ts; its REST calls carry the grant, never a token, and are checked per route).
 */
export type McpCaller = { kind: "token" | "bot"; token: string } | { kind: "oauth"; token: string; grant: GrantCaller };

/**
 * Whether the caller's credential still holds, for a tool that waits (render-tools.ts). A token's in-process calls
 * are each checked by the request gate; a grant's are not (oauth-caller.ts), so its token is validated again
 * (one KV read, no D1): a revoked app's wait ends at its next poll.
 */
function callerLive(c: Context<AppEnv>, caller: McpCaller): () => Promise<boolean> {
  if (caller.kind !== "oauth") return async () => true;
  return async () => {
    const { grantForToken } = await import("../oauth/mcp-credential.ts");
    return (await grantForToken(c.env, caller.token)) !== null;
  };
}

/** Answers one JSON-RPC message (or batch) for a caller. */
export async function answerMcp(c: Context<AppEnv>, api: Hono<AppEnv>, caller: McpCaller, message: unknown): Promise<Response | undefined> {
  const rest = restClient(api, c.env, c.executionCtx, caller.kind === "oauth" ? (req) => carryGrant(req, caller.grant) : `Bearer ${caller.token}`);
  // JSON Schema checks without code generation (Workers refuse `new Function`); the SDK's default, Ajv, is left out
  // of the bundle (ajv-left-out.ts).
  // Renders, batches and snapshots are MCP tasks (task-store.ts) for every caller but a bot key, which has no such tools.
  const snapshotTtlMs = configOf(c.env).JOB_RETENTION_DAYS * 24 * 60 * 60 * 1000;
  const tasks = caller.kind === "bot" ? {} : { taskStore: studioTaskStore(rest, snapshotTtlMs), capabilities: { tasks: TASKS_CAPABILITY } };
  const mcp = new McpServer({ name: "studio", version: VERSION }, { instructions: MCP_INSTRUCTIONS, jsonSchemaValidator: new CfWorkerJsonSchemaValidator(), ...tasks });
  const server = caller.kind === "oauth" ? scopedServer(mcp, caller.grant.scopes) : mcp;
  const token = caller.token;
  if (caller.kind !== "bot") {
    registerAccountTools(server, rest);
    const plain = plainToolCalls(message);
    const asTask = (tool: string) => !plain.has(tool);
    registerProjectTools(server, rest, asTask, snapshotTtlMs);
    registerRenderTools(server, rest, configOf(c.env).MCP_RENDER_WAIT_MS, callerLive(c, caller), asTask);
    registerBatchTools(server, rest, asTask);
    registerProjectResources(server, rest);
    registerPlayerResource(server, contentOrigin(c.env));
    registerPrompts(server, () => loadDocTexts(c.env));
  }
  registerIdeaTools(server, rest);
  // A resource URI the URL parser would rewrite is refused before the SDK parses it (resource-uri.ts says why).
  const refused = refusedResourceReads(message);
  if (refused) return c.json(redactCredentials(refused, token));
  // Whatever a tool answers, no credential leaves in it (redact-credentials.ts).
  const transport = new CredentialRedactingTransport(token);
  await mcp.connect(transport);
  return transport.handleRequest(c, message);
}
