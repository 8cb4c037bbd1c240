// The Origin rule of /mcp. The MCP Streamable HTTP transport says a server MUST validate Origin, to stop DNS
// rebinding: a page on evil.example whose name is made to resolve to this server (a studio run on 127.0.0.1 is the
// case that matters) is same-origin in the browser's eyes, so neither CORS nor the browser stops its fetch; only the
// Origin it sends gives it away. So a request to /mcp, whatever its method, goes on only with no Origin (MCP clients
// outside a browser send none) or with the API origin's own (a page of the dashboard). Every other value is 403,
// decided before the caller is identified: no credential is looked up, no body read.
//
// The content origin (CONTENT_URL) does not count. It serves pages that any user wrote, and keeping their scripts
// away from the API origin is its whole purpose (worker/http/origins.ts); a page there that got hold of a token must
// not be able to drive the MCP server with it. Its sandboxed pages send "Origin: null", which is refused as well.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context.ts";
import { forbidden } from "../http/errors.ts";
import { apiOrigin } from "../http/origins.ts";

/** Why a request with this Origin header may not use /mcp, or null when it may. Pure. */
export function mcpOriginRefusal(origin: string | undefined, studioOrigin: string): string | null {
  // An empty header says as little as none: browsers, the clients this rule is about, never send one.
  if (origin === undefined || origin === "") return null;
  // Browsers send the serialized origin (lower-case scheme and host, no default port, no path), as BASE_URL is
  // normalized: an exact match, as the cross-site rule compares (worker/http/csrf-rule.ts).
  if (origin === studioOrigin) return null;
  return `Origin ${JSON.stringify(origin)} may not use the MCP server; only ${studioOrigin}, or no Origin at all (as MCP clients outside a browser send)`;
}

export const refuseForeignMcpOrigins: MiddlewareHandler<AppEnv> = async function refuseForeignMcpOrigins(c, next) {
  const refusal = mcpOriginRefusal(c.req.header("Origin"), apiOrigin(c.env));
  if (refusal) throw forbidden(`forbidden: ${refusal}`);
  await next();
};
