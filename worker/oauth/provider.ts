// The OAuth 2.1 authorization server for MCP clients (Cloudflare's workers-oauth-provider): discovery, dynamic
// client registration, client ID metadata documents, the token endpoint (codes with PKCE S256 only, refresh,
// revocation), all kept in the OAUTH_KV namespace with tokens, codes and secrets stored only as hashes. The issuer
// is the API origin (BASE_URL) and the one protected resource is its /mcp. Loaded on first use, never at startup:
// only OAuth traffic needs the library.
import { OAuthAuthorizationServer, OAuthError, type TokenExchangeCallbackOptions } from "@cloudflare/workers-oauth-provider";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { apiOrigin } from "../http/origins.ts";
import { ACCESS_TOKEN_SECONDS, CLIENT_SECONDS, GRANT_SECONDS } from "./lifetimes.ts";
import { isGrantRevoked } from "./revoked-grants.ts";
import { SCOPE_NAMES } from "./scopes.ts";

export const AUTHORIZE_PATH = "/oauth/authorize";

/** The protected resource an access token is issued for: the MCP endpoint, and nothing else. */
export function mcpResource(env: Env): string {
  return `${apiOrigin(env)}/mcp`;
}

/**
 * Why this environment cannot run OAuth, or null: the library refuses an issuer on plain http unless its host is a
 * loopback one (OAuth 2.1 needs https). Such an environment never issued a grant.
 */
export function issuerProblem(env: Env): string | null {
  const url = new URL(apiOrigin(env));
  const loopback = url.hostname === "localhost" || url.hostname === "[::1]" || url.hostname.startsWith("127.");
  return url.protocol === "https:" || loopback ? null : `OAuth needs BASE_URL on https (or a loopback host for local runs), not ${url.origin}`;
}

/**
 * The library's hook on every code exchange and refresh, after it checked the code or token and before it stores
 * anything: a grant with a revoked-grant record gets nothing (invalid_grant, on which the library also deletes
 * what a racing refresh may have written back). The token endpoint checks again once the tokens are stored
 * (token-endpoint.ts), since a revocation can land between this check and the library's writes.
 */
async function refuseRevokedGrant(options: TokenExchangeCallbackOptions<Env>): Promise<void> {
  if (await isGrantRevoked(options.env, options.grantId)) {
    throw new OAuthError("invalid_grant", { description: "this grant was revoked", internal: { category: "token-exchange-callback", reason: "grant_revoked" } });
  }
}

const servers = new Map<string, OAuthAuthorizationServer<Env>>();

/** The authorization server of this environment's origin (one per isolate and origin). */
export function authorizationServer(env: Env): OAuthAuthorizationServer<Env> {
  const issuer = apiOrigin(env);
  let server = servers.get(issuer);
  if (!server) {
    try {
      server = new OAuthAuthorizationServer<Env>({
        issuer,
        resources: [mcpResource(env)],
        authorizeEndpoint: AUTHORIZE_PATH,
        tokenEndpoint: "/oauth/token",
        clientRegistrationEndpoint: "/oauth/register",
        scopesSupported: SCOPE_NAMES,
        clientIdMetadataDocumentEnabled: true,
        accessTokenTTL: ACCESS_TOKEN_SECONDS,
        refreshTokenTTL: GRANT_SECONDS,
        tokenExchangeCallback: refuseRevokedGrant,
        clientRegistrationTTL: CLIENT_SECONDS,
      });
    } catch (err) {
      // The library refuses an http issuer that is not a loopback host (OAuth 2.1 needs https).
      throw new ApiError(503, `unavailable: OAuth needs BASE_URL on https (or a loopback host for local runs): ${(err as Error).message}`);
    }
    servers.set(issuer, server);
  }
  return server;
}
