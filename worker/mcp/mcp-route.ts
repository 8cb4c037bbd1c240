// POST /mcp: the studio as a remote MCP server (Streamable HTTP, stateless: a new server and transport per
// request, so any Worker instance answers any request and nothing is kept between calls). The caller's bearer
// token decides the tools: a personal token sees every tool, an idea-board bot key only the idea tools; each tool
// calls the REST app in-process with that same credential, on exactly the resource it names (rest-client.ts), and
// nothing it answers carries a credential (redact-credentials.ts). GET (a standalone event stream) and DELETE (ending a
// session) have nothing to do without sessions: 405.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Hono } from "hono";
import { presentedToken } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { ApiError, unauthorized } from "../http/errors.ts";
import { VERSION } from "../routes/health.ts";
import { registerAccountTools } from "./account-tools.ts";
import { registerIdeaTools } from "./idea-tools.ts";
import { registerProjectTools } from "./project-tools.ts";
import { registerRenderTools } from "./render-tools.ts";
import { readBoundedText } from "../http/read-body.ts";
import { CredentialRedactingTransport } from "./redact-credentials.ts";
import { restClient } from "./rest-client.ts";
import { MCP_INSTRUCTIONS } from "./instructions.ts";

/** Largest MCP request body (a write_file of a small asset in base64 fits; larger files go to PUT .../files/<path>). */
export const MCP_BODY_LIMIT = 10 * 1024 * 1024;

/** The 401 of /mcp: the error body of the REST API plus the challenge MCP clients look for. */
function challenge(reason: string, invalid: boolean): ApiError {
  const err = unauthorized(reason);
  const params = invalid ? 'Bearer realm="studio", error="invalid_token"' : 'Bearer realm="studio"';
  return new ApiError(err.status, err.message, {}, { "WWW-Authenticate": params });
}

export function mcpRoutes(api: Hono<AppEnv>) {
  return new Hono<AppEnv>()
    .post("/", async (c) => {
      const token = presentedToken(c.req);
      const credential = c.get("credential");
      if (!token || (credential !== "token" && credential !== "bot")) {
        if (credential === "node") throw new ApiError(403, "forbidden: render node keys cannot use the MCP server");
        throw challenge(token ? c.get("authProblem") : "missing token", token !== null);
      }
      const rest = restClient(api, c.env, c.executionCtx, `Bearer ${token}`);
      const server = new McpServer({ name: "studio", version: VERSION }, { instructions: MCP_INSTRUCTIONS });
      if (credential === "token") {
        registerAccountTools(server, rest);
        registerProjectTools(server, rest);
        registerRenderTools(server, rest);
      }
      registerIdeaTools(server, rest);
      // Read here, bounded, rather than by the transport (which reads any size): 413 past the limit.
      const text = await readBoundedText(c.req.raw, MCP_BODY_LIMIT, "; upload large files with PUT /api/projects/:slug/files/<path>");
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return c.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not JSON" }, id: null }, 400);
      }
      // Whatever a tool answers, no credential leaves in it (redact-credentials.ts).
      const transport = new CredentialRedactingTransport(token);
      await server.connect(transport);
      return transport.handleRequest(c, message);
    })
    .on(["GET", "DELETE"], "/", (c) =>
      c.json({ error: "method not allowed: this MCP server is stateless; POST JSON-RPC messages to /mcp" }, 405, { Allow: "POST" }),
    );
}
