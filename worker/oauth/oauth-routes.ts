// OAuth 2.1 for /mcp, as MCP clients discover it: the protected-resource metadata (RFC 9728; the /mcp 401 names
// it), the authorization-server metadata (RFC 8414), dynamic client registration (RFC 7591), the token endpoint
// (codes, refresh, revocation), all served by the library (provider.ts), and the authorization endpoint with its
// consent page (consent.ts). Every handler loads its module on first use: no OAuth code runs at Worker startup.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../http/context.ts";
import { apiOrigin } from "../http/origins.ts";
import { openDb } from "../db/client.ts";
import { readBoundedBytes } from "../http/read-body.ts";
import { SCOPE_NAMES } from "./scopes.ts";
import * as z from "zod";
import { route } from "../http/route.ts";
import { json, media, type Response as Answer } from "../openapi/operation.ts";

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

/** Largest registration (the library's own limit is 1 MiB; client metadata is a few hundred bytes). */
const REGISTRATION_BODY_LIMIT = 64 * 1024;

/** A request the library answers (metadata, registration); a POST's body read bounded first (413). */
async function library(c: Context<AppEnv>, bodyLimit = 0, before?: () => Promise<void>, after?: (answer: Response) => Promise<void>): Promise<Response> {
  const { authorizationServer } = await import("./provider.ts");
  let request = c.req.raw;
  if (bodyLimit > 0) request = new Request(request.url, { method: request.method, headers: request.headers, body: await readBoundedBytes(request, bodyLimit) });
  // What must pass before the library acts (a registration's limits), once the body is known to fit.
  await before?.();
  const answer = await authorizationServer(c.env).fetch(request, c.env, c.executionCtx as ExecutionContext);
  // What follows the library's answer (a new registration's expiry, unless it is used).
  await after?.(answer);
  return answer;
}

// The protocol endpoints answer in OAuth's own shapes (RFC 6749 errors), not the API's.
const oauthFailure = (): Record<number, Answer> => {
  const oauthError = z.object({ error: z.string(), error_description: z.string().optional() }).describe("an OAuth error (RFC 6749)");
  return { 400: json(oauthError, "an OAuth error"), 401: json(oauthError, "client authentication failed") };
};
const metadataAnswer = () => ({
  200: json(
    z.object({ resource: z.string(), authorization_servers: z.array(z.string()), scopes_supported: z.array(z.enum(SCOPE_NAMES as [string, ...string[]])), bearer_methods_supported: z.array(z.string()) }),
    "protected-resource metadata (RFC 9728)",
  ),
});
const form = () => ({ body: { raw: ["application/x-www-form-urlencoded"] } });
const redirect = { description: "back to the client's redirect URI with a code or an error, or to sign-in first" };

export const oauthRoutes = new Hono<AppEnv>()
  .get(
    "/.well-known/oauth-protected-resource",
    route({ operationId: "oauthProtectedResource", summary: "Protected-resource metadata of /mcp (RFC 9728)", tag: "oauth", access: "public", responses: metadataAnswer }, resourceMetadata),
  )
  .get(
    "/.well-known/oauth-protected-resource/mcp",
    route({ operationId: "oauthProtectedResourceMcp", summary: "The same, at the path the /mcp 401 names", tag: "oauth", access: "public", responses: metadataAnswer }, resourceMetadata),
  )
  .get(
    "/.well-known/oauth-authorization-server",
    route(
      {
        operationId: "oauthServerMetadata", summary: "Authorization-server metadata (RFC 8414)", tag: "oauth", access: "public",
        responses: () => ({ 200: json(z.object({ issuer: z.string(), authorization_endpoint: z.string(), token_endpoint: z.string(), registration_endpoint: z.string() }), "the server's endpoints and capabilities") }),
      },
      (c) => library(c),
    ),
  )
  .post(
    "/oauth/register",
    route(
      {
        operationId: "oauthRegister", summary: "Dynamic client registration (RFC 7591)", tag: "oauth", access: "public",
        request: () => ({ body: { json: z.record(z.string(), z.unknown()) } }),
        responses: () => ({ 201: json(z.object({ client_id: z.string() }), "the registered client"), ...oauthFailure() }),
        errors: [413, 429],
      },
      // Limited per network at several widths and by a count of networks (limits/registration-limit.ts): each
      // registration stores a client, which lapses after a day unless used (unused-clients.ts).
      (c) =>
        library(
          c,
          REGISTRATION_BODY_LIMIT,
          async () => {
            const { registrationLimitsOf, spendRegistration } = await import("../limits/registration-limit.ts");
            await spendRegistration(openDb(c.env.DB), registrationLimitsOf(c.env), c.req.raw);
          },
          async (answer) => (await import("./unused-clients.ts")).expireUnlessUsed(c.env, answer),
        ),
    ),
  )
  .post(
    "/oauth/token",
    route(
      {
        operationId: "oauthToken", summary: "Exchange a code (with its PKCE verifier) or a refresh token; revoke a token", tag: "oauth", access: "public", request: form,
        responses: () => ({
          200: json(z.object({ access_token: z.string().optional(), token_type: z.string().optional(), refresh_token: z.string().optional(), scope: z.string().optional() }), "tokens, or an empty answer to a revocation"),
          ...oauthFailure(),
        }),
        errors: [413],
      },
      // The library, wrapped where it has no hook (token-endpoint.ts): refresh tokens spent once, revoked grants.
      async (c) => (await import("./token-endpoint.ts")).answerToken(c),
    ),
  )
  .get(
    "/oauth/authorize",
    route(
      {
        operationId: "oauthAuthorize", summary: "The consent page (signed-in person; else sign in first)", tag: "oauth", access: "optional",
        responses: () => ({ 200: media("text/html", "the consent page"), 302: redirect, 400: { description: "an invalid request, shown as a page (never redirected to an unverified client)" } }),
      },
      async (c) => (await import("./consent.ts")).showConsent(c),
    ),
  )
  .post(
    "/oauth/authorize",
    route(
      {
        operationId: "oauthConsent", summary: "Allow or deny, from the consent page", tag: "oauth", access: "user", request: form,
        responses: () => ({ 302: redirect, 400: { description: "an invalid or spent form, shown as a page" }, 403: { description: "not this session's form, or not signed in, shown as a page" } }),
      },
      async (c) => (await import("./consent.ts")).answerConsent(c),
    ),
  );
