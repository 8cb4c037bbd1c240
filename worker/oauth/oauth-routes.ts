// OAuth 2.1 for /mcp, as MCP clients discover it: the protected-resource metadata (RFC 9728; the /mcp 401 names
// it), the authorization-server metadata (RFC 8414), dynamic client registration (RFC 7591), the token endpoint
// (codes, refresh, revocation), all served by the library (provider.ts), and the authorization endpoint with its
// consent page (consent.ts). Every handler loads its module on first use: no OAuth code runs at Worker startup.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../http/context.ts";
import { apiOrigin } from "../http/origins.ts";
import { readBoundedBytes } from "../http/read-body.ts";
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

/** Largest body of a token or revocation request (a code, a verifier, a refresh token: well under 1 KiB). */
const TOKEN_BODY_LIMIT = 16 * 1024;
/** Largest registration (the library's own limit is 1 MiB; client metadata is a few hundred bytes). */
const REGISTRATION_BODY_LIMIT = 64 * 1024;

/** A request the library answers (metadata, registration, token, revocation); a POST's body read bounded first (413). */
async function library(c: Context<AppEnv>, bodyLimit = 0): Promise<Response> {
  const { authorizationServer } = await import("./provider.ts");
  let request = c.req.raw;
  if (bodyLimit > 0) request = new Request(request.url, { method: request.method, headers: request.headers, body: await readBoundedBytes(request, bodyLimit) });
  return authorizationServer(c.env).fetch(request, c.env, c.executionCtx as ExecutionContext);
}

export const oauthRoutes = new Hono<AppEnv>()
  .get("/.well-known/oauth-protected-resource", resourceMetadata)
  .get("/.well-known/oauth-protected-resource/mcp", resourceMetadata)
  .get("/.well-known/oauth-authorization-server", (c) => library(c))
  .post("/oauth/register", (c) => library(c, REGISTRATION_BODY_LIMIT))
  .post("/oauth/token", (c) => library(c, TOKEN_BODY_LIMIT))
  .get("/oauth/authorize", async (c) => (await import("./consent.ts")).showConsent(c))
  .post("/oauth/authorize", async (c) => (await import("./consent.ts")).answerConsent(c));
