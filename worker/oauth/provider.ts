// The OAuth 2.1 authorization server for MCP clients (Cloudflare's workers-oauth-provider): discovery, dynamic
// client registration, client ID metadata documents, the token endpoint (codes with PKCE S256 only, refresh,
// revocation), all kept in the OAUTH_KV namespace with tokens, codes and secrets stored only as hashes. The issuer
// is the API origin (BASE_URL) and the one protected resource is its /mcp. Loaded on first use, never at startup:
// only OAuth traffic needs the library.
import { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { apiOrigin } from "../http/origins.ts";
import { SCOPE_NAMES } from "./scopes.ts";

/** An access token lives an hour; the refresh token (and so the grant) 30 days, rotated on each use. */
const ACCESS_TOKEN_SECONDS = 3600;
const GRANT_SECONDS = 30 * 86_400;

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
      });
    } catch (err) {
      // The library refuses an http issuer that is not a loopback host (OAuth 2.1 needs https).
      throw new ApiError(503, `unavailable: OAuth needs BASE_URL on https (or a loopback host for local runs): ${(err as Error).message}`);
    }
    servers.set(issuer, server);
  }
  return server;
}
