// OAuth 2.1 for /mcp, as MCP clients discover it: the protected-resource metadata (RFC 9728; the /mcp 401 names
// it), the authorization-server metadata (RFC 8414), dynamic client registration (RFC 7591), the token endpoint
// (codes, refresh, revocation), all served by the library (provider.ts), and the authorization endpoint with its
// consent page (consent.ts). Every handler loads its module on first use: no OAuth code runs at Worker startup.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../http/context.ts";
import { apiOrigin } from "../http/origins.ts";
import { SCOPE_NAMES } from "./scopes.ts";

/** RFC 9728: what /mcp is and who issues its tokens. Scopes are listed; the consent page lets the person choose. */
function resourceMetadata(c: Context<AppEnv>) {
  const origin = apiOrigin(c.env);
  return c.json({
    resource: `${origin}/mcp`,
    authorization_servers: [origin],
    scopes_supported: SCOPE_NAMES,
    bearer_methods_supported: ["header"],
    resource_name: "Studio MCP server",
    resource_documentation: `${origin}/llms.txt`,
  });
}

/** A request the library answers (metadata, registration, token, revocation). */
async function library(c: Context<AppEnv>): Promise<Response> {
  const { authorizationServer } = await import("./provider.ts");
  return authorizationServer(c.env).fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);
}

export const oauthRoutes = new Hono<AppEnv>()
  .get("/.well-known/oauth-protected-resource", resourceMetadata)
  .get("/.well-known/oauth-protected-resource/mcp", resourceMetadata)
  .get("/.well-known/oauth-authorization-server", library)
  .post("/oauth/register", library)
  .post("/oauth/token", library)
  .get("/oauth/authorize", async (c) => (await import("./consent.ts")).showConsent(c))
  .post("/oauth/authorize", async (c) => (await import("./consent.ts")).answerConsent(c));
