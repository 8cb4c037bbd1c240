// POST /mcp: the studio as a remote MCP server (Streamable HTTP, stateless: a new server and transport per
// request, so any Worker instance answers any request and nothing is kept between calls). The caller's bearer
// token decides the tools: a personal token sees every tool, an idea-board bot key only the idea tools; each tool
// calls the REST app in-process with that same credential, on exactly the resource it names (rest-client.ts), and
// nothing it answers carries a credential (redact-credentials.ts). GET (a standalone event stream) and DELETE (ending a
// session) have nothing to do without sessions: 405.
import { Hono } from "hono";
import { presentedToken } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { ApiError, unauthorized } from "../http/errors.ts";
import { readBoundedText } from "../http/read-body.ts";

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
      // Read here, bounded, rather than by the transport (which reads any size): 413 past the limit.
      const text = await readBoundedText(c.req.raw, MCP_BODY_LIMIT, "; upload large files with PUT /api/projects/:slug/files/<path>");
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return c.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not JSON" }, id: null }, 400);
      }
      // The MCP server is loaded on first use (mcp-server.ts says why).
      const { answerMcp } = await import("./mcp-server.ts");
      return answerMcp(c, api, token, credential, message);
    })
    .on(["GET", "DELETE"], "/", (c) =>
      c.json({ error: "method not allowed: this MCP server is stateless; POST JSON-RPC messages to /mcp" }, 405, { Allow: "POST" }),
    );
}
