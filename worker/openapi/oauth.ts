// OAuth 2.1 for MCP clients (worker/oauth/): discovery, registration, tokens, the consent page, and the person's
// connected apps. The protocol endpoints answer in OAuth's own shapes (RFC 6749 errors), not the API's.
import * as z from "zod";
import { SCOPE_NAMES } from "../oauth/scopes.ts";
import { isoTime } from "./shapes.ts";
import { json, pathParams, type Operation } from "./operation.ts";

const oauthError = z.object({ error: z.string(), error_description: z.string().optional() }).describe("an OAuth error (RFC 6749)");
const oauthFailure = { 400: { description: "an OAuth error", body: { json: oauthError } }, 401: { description: "client authentication failed", body: { json: oauthError } } };
const tooLarge = [413];
const resourceMetadata = json(
  z.object({ resource: z.string(), authorization_servers: z.array(z.string()), scopes_supported: z.array(z.enum(SCOPE_NAMES as [string, ...string[]])), bearer_methods_supported: z.array(z.string()) }),
  "protected-resource metadata (RFC 9728)",
);
const page = (description: string) => ({ description, body: { media: "text/html", schema: z.string() } });
const redirect = { description: "back to the client's redirect URI with a code or an error, or to sign-in first" };
const connectedApp = z.object({
  id: z.string(),
  clientName: z.string().describe("as the app named itself (not verified unless it has a metadata document)"),
  redirectHost: z.string(),
  scopes: z.array(z.string()),
  createdAt: isoTime,
  expiresAt: isoTime.nullable(),
});

export const oauthOperations: Operation[] = [
  { method: "get", path: "/.well-known/oauth-protected-resource", operationId: "oauthProtectedResource", summary: "Protected-resource metadata of /mcp (RFC 9728)", tag: "oauth", access: "public", responses: { 200: resourceMetadata } },
  { method: "get", path: "/.well-known/oauth-protected-resource/mcp", operationId: "oauthProtectedResourceMcp", summary: "The same, at the path the /mcp 401 names", tag: "oauth", access: "public", responses: { 200: resourceMetadata } },
  {
    method: "get", path: "/.well-known/oauth-authorization-server", operationId: "oauthServerMetadata", summary: "Authorization-server metadata (RFC 8414)", tag: "oauth", access: "public",
    responses: { 200: json(z.object({ issuer: z.string(), authorization_endpoint: z.string(), token_endpoint: z.string(), registration_endpoint: z.string() }), "the server's endpoints and capabilities") },
  },
  {
    method: "post", path: "/oauth/register", operationId: "oauthRegister", summary: "Dynamic client registration (RFC 7591)", tag: "oauth", access: "public", body: { json: z.record(z.string(), z.unknown()) },
    responses: { 201: json(z.object({ client_id: z.string() }), "the registered client"), ...oauthFailure }, errors: tooLarge,
  },
  {
    method: "post", path: "/oauth/token", operationId: "oauthToken", summary: "Exchange a code (with its PKCE verifier) or a refresh token; revoke a token", tag: "oauth", access: "public", body: { raw: ["application/x-www-form-urlencoded"] },
    responses: { 200: json(z.object({ access_token: z.string().optional(), token_type: z.string().optional(), refresh_token: z.string().optional(), scope: z.string().optional() }), "tokens, or an empty answer to a revocation"), ...oauthFailure }, errors: tooLarge,
  },
  { method: "get", path: "/oauth/authorize", operationId: "oauthAuthorize", summary: "The consent page (signed-in person; else sign in first)", tag: "oauth", access: "optional", responses: { 200: page("the consent page"), 302: redirect, 400: { description: "an invalid request, shown as a page (never redirected to an unverified client)" } } },
  { method: "post", path: "/oauth/authorize", operationId: "oauthConsent", summary: "Allow or deny, from the consent page", tag: "oauth", access: "user", body: { raw: ["application/x-www-form-urlencoded"] }, responses: { 302: redirect, 400: { description: "an invalid or spent form, shown as a page" }, 403: { description: "not this session's form, or not signed in, shown as a page" } } },
  { method: "get", path: "/api/me/apps", operationId: "listConnectedApps", summary: "Apps connected to your account through OAuth", tag: "identity", access: "user", responses: { 200: json(z.object({ apps: z.array(connectedApp) }), "the connected apps") } },
  {
    method: "delete", path: "/api/me/apps/{id}", operationId: "revokeConnectedApp", summary: "Disconnect an app: its tokens stop working", tag: "identity", access: "user", params: pathParams("id"),
    responses: { 200: json(z.object({ revoked: z.literal(true), id: z.string() }), "revoked") }, errors: [400, 404],
  },
];
