// POST /mcp: the studio as a remote MCP server (Streamable HTTP, stateless: a new server and transport per
// request, so any Worker instance answers any request and nothing is kept between calls). The caller's bearer
// token decides the tools: a personal token sees every tool, an idea-board bot key only the idea tools; each tool
// calls the REST app in-process with that same credential, on exactly the resource it names (rest-client.ts), and
// nothing it answers carries a credential (redact-credentials.ts). An OAuth access token (worker/oauth/) in the
// Authorization header is the third kind: its grant's scopes decide the tools; the 401 names the protected-resource
// metadata an MCP client discovers the authorization server from. GET (a standalone event stream) and DELETE (ending a
// session) have nothing to do without sessions: 405. Before any of this, a request from a page of another origin is
// 403 (mcp-origin.ts, mounted in app.ts ahead of identifying the caller).
import { Hono } from "hono";
import { presentedToken } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { ApiError, unauthorized } from "../http/errors.ts";
import { readBoundedText } from "../http/read-body.ts";
import { apiOrigin } from "../http/origins.ts";
import type { Env } from "../env.ts";
import { isGrantToken } from "../oauth/grant-token.ts";
import type { McpCaller } from "./mcp-server.ts";
import * as z from "zod";
import { route } from "../http/route.ts";
import { media } from "../openapi/operation.ts";
import { parseJson } from "../../core/parse-text.ts";

/** Largest MCP request body (a write_file of a small asset in base64 fits; larger files go to PUT .../files/<path>). */
export const MCP_BODY_LIMIT = 10 * 1024 * 1024;

/** The 401 of /mcp: the error body of the REST API plus the challenge MCP clients look for. */
function challenge(env: Env, reason: string, invalid: boolean): ApiError {
  const err = unauthorized(reason);
  const metadata = `resource_metadata="${apiOrigin(env)}/.well-known/oauth-protected-resource/mcp"`;
  const params = invalid ? `Bearer realm="studio", error="invalid_token", ${metadata}` : `Bearer realm="studio", ${metadata}`;
  return new ApiError(err.status, err.message, {}, { "WWW-Authenticate": params });
}

/** The caller of one /mcp request, or null. An OAuth token counts only in the Authorization header (RFC 6750). */
async function mcpCaller(env: Env, token: string | null, credential: string | null, authorization: string | undefined): Promise<McpCaller | null> {
  if (!token) return null;
  if (credential === "token" || credential === "bot") return { kind: credential, token };
  if (credential !== null || !isGrantToken(token) || !/^Bearer\s/i.test(authorization ?? "")) return null;
  // The authorization server is loaded only for a token shaped like one of its own.
  const { grantForToken } = await import("../oauth/mcp-credential.ts");
  const grant = await grantForToken(env, token);
  return grant ? { kind: "oauth", token, grant } : null;
}

/** GET and DELETE: nothing to do without sessions. */
const stateless = (operationId: string, summary: string) =>
  route(
    {
      operationId, summary, tag: "agents", access: "writer",
      responses: () => ({ 405: { description: "the MCP server is stateless: POST only", body: { json: z.object({ error: z.string() }) } } }),
      // A page of another origin is refused first, on every method (mcp-origin.ts).
      errors: [403],
    },
    (c) => c.json({ error: "method not allowed: this MCP server is stateless; POST JSON-RPC messages to /mcp" }, 405, { Allow: "POST" }),
  );
const mcpStream = stateless("mcpStream", "No standalone stream: the server is stateless (405)");
const mcpEndSession = stateless("mcpEndSession", "No session to end: the server is stateless (405)");

export function mcpRoutes(api: Hono<AppEnv>) {
  return new Hono<AppEnv>()
    .post("/", route({
      operationId: "mcp", summary: "The MCP server (Streamable HTTP, stateless): a personal token sees every tool, a bot key the idea tools", tag: "agents", access: "writer",
      request: () => ({ body: { json: z.unknown().describe("a JSON-RPC 2.0 message or batch (MCP Streamable HTTP)") } }),
      responses: () => ({
        200: media("text/event-stream", "the JSON-RPC answer, as an event stream (with progress notifications) or JSON"),
        202: { description: "a notification or response was accepted" },
      }),
      errors: [400, 403, 406, 413, 415],
    }, async (c) => {
      const token = presentedToken(c.req);
      const credential = c.get("credential");
      if (credential === "node") throw new ApiError(403, "forbidden: render node keys cannot use the MCP server");
      const caller = await mcpCaller(c.env, token, credential, c.req.header("Authorization"));
      if (!caller) throw challenge(c.env, token ? c.get("authProblem") : "missing token", token !== null);
      // Read here, bounded, rather than by the transport (which reads any size): 413 past the limit.
      const text = await readBoundedText(c.req.raw, MCP_BODY_LIMIT, "; upload large files with PUT /api/projects/:slug/files/<path>");
      const json = parseJson(text);
      if (!json.ok) return c.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not JSON" }, id: null }, 400);
      const message = json.value;
      // The MCP server is loaded on first use (mcp-server.ts says why).
      const { answerMcp } = await import("./mcp-server.ts");
      return answerMcp(c, api, caller, message);
    }))
    .get("/", mcpStream)
    .delete("/", mcpEndSession);
}
