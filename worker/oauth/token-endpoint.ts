// POST /oauth/token: the library answers (codes, refresh, RFC 7009 revocation), wrapped where it has no hook.
//   - A refresh token is spent once (refresh-claims.ts): a second use, a replay or a race, revokes the whole grant.
//   - A grant with a revoked-grant record gets nothing (revoked-grants.ts): checked before (the library's
//     tokenExchangeCallback, provider.ts) and again after the tokens are stored, so a refresh that raced a
//     revocation answers invalid_grant, and what it wrote is deleted again.
//   - A client revoking its refresh token (RFC 7009) revokes the grant for good, the record included.
//   - A client_id that is a metadata document URL is fetched only for a grant a signed-in person approved for that
//     very client, and never from the studio's own origins (client-metadata-url.ts); anything else is
//     invalid_client here, before the library could fetch it.
// Answers are the library's, or OAuth errors in its shape (RFC 6749 §5.2: { error, error_description }).
import type { Context } from "hono";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { readBoundedBytes } from "../http/read-body.ts";
import { isMetadataDocumentUrl, ownOriginProblem } from "./client-metadata-url.ts";
import { grantPartsOf } from "./grant-token.ts";
import { revokeGrantForGood } from "./grants.ts";
import { authorizationServer } from "./provider.ts";
import { claimAgeMs, claimRefreshToken, releaseRefreshToken } from "./refresh-claims.ts";
import { isGrantRevoked } from "./revoked-grants.ts";
import { sha256Hex } from "../auth/tokens.ts";

/** Largest body of a token or revocation request (a code, a verifier, a refresh token: well under 1 KiB). */
export const TOKEN_BODY_LIMIT = 16 * 1024;

/** Parameters that name the client or the credential: each may appear once (RFC 6749 §3.2). */
const SINGLE = ["grant_type", "client_id", "code", "refresh_token", "token", "client_assertion"];

/** Longer than any refresh takes: a claim this old was not given back, so its token was spent (refresh-claims.ts). */
const IN_FLIGHT_MS = 60_000;

/** What the library keeps of a grant in KV (the fields read here). */
interface StoredGrant {
  clientId?: string;
  refreshTokenId?: string;
  previousRefreshTokenId?: string;
}

function oauthError(error: string, description: string, status = 400): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache" },
  });
}

const readGrant = (c: Context<AppEnv>, userId: string, grantId: string) => c.env.OAUTH_KV.get<StoredGrant>(`grant:${userId}:${grantId}`, { type: "json" });

/** The client id of HTTP Basic client authentication, as the library decodes it; null without one. */
function basicClientId(authorization: string | undefined): string | null {
  const match = /^basic[ \t]+(\S+)$/i.exec(authorization?.trim() ?? "");
  if (!match) return null;
  try {
    const credentials = atob(match[1]!);
    const colon = credentials.indexOf(":");
    return colon < 0 ? null : decodeURIComponent(credentials.slice(0, colon).replace(/\+/g, " "));
  } catch (err) {
    // Not base64 or not percent-encoding: the library finds it malformed too and fetches nothing.
    if (err instanceof Error) return null;
    throw err;
  }
}

/** The issuer of a client assertion (a JWT), which the library takes as the client id when client_id is absent. */
function assertionIssuer(assertion: string | null): string | null {
  const payload = assertion?.split(".")[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    const iss = (claims as { iss?: unknown } | null)?.iss;
    return typeof iss === "string" ? iss : null;
  } catch (err) {
    // Not a JWT the library could read either: it takes no issuer from it, so nothing is fetched.
    if (err instanceof Error) return null;
    throw err;
  }
}

/** Every client id this request may be authenticated as. */
function clientIdsOf(form: URLSearchParams, authorization: string | undefined): string[] {
  return [form.get("client_id"), basicClientId(authorization), assertionIssuer(form.get("client_assertion"))].filter((id): id is string => !!id);
}

/** The refusal of a request whose client is a metadata document URL the studio will not fetch now; null to go on. */
async function metadataClientRefusal(c: Context<AppEnv>, clientIds: string[], credential: string | null): Promise<Response | null> {
  const urls = clientIds.filter(isMetadataDocumentUrl);
  if (urls.length === 0) return null;
  for (const url of urls) {
    const problem = ownOriginProblem(c.env, url);
    if (problem) return oauthError("invalid_client", problem, 401);
  }
  const parts = credential ? grantPartsOf(credential) : null;
  const grant = parts ? await readGrant(c, parts.userId, parts.grantId) : null;
  if (!grant || urls.some((url) => url !== grant.clientId)) {
    return oauthError("invalid_client", "a client ID metadata document is fetched only for a grant a signed-in person approved for that client", 401);
  }
  return null;
}

export async function answerToken(c: Context<AppEnv>): Promise<Response> {
  const raw = c.req.raw;
  const body = await readBoundedBytes(raw, TOKEN_BODY_LIMIT);
  const request = new Request(raw.url, { method: raw.method, headers: raw.headers, body });
  const isForm = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase() === "application/x-www-form-urlencoded";
  // Anything but a form the library refuses by itself, reading nothing of it.
  const form = isForm ? new URLSearchParams(new TextDecoder().decode(body)) : new URLSearchParams();
  const repeated = SINGLE.find((name) => form.getAll(name).length > 1);
  if (repeated) return oauthError("invalid_request", `${repeated} must be sent once`);

  const grantType = form.get("grant_type");
  // The credential the request presents: a code, a refresh token, or (no grant_type) a token to revoke.
  const credential = grantType === "authorization_code" ? form.get("code") : grantType === "refresh_token" ? form.get("refresh_token") : grantType === null ? form.get("token") : null;
  const clientIds = clientIdsOf(form, c.req.header("Authorization"));
  const refusal = await metadataClientRefusal(c, clientIds, credential);
  if (refusal) return refusal;

  const parts = credential ? grantPartsOf(credential) : null;
  if (!parts) return library(c, request);
  if (grantType === null) return revocation(c, request, credential!, parts, clientIds);

  const db = openDb(c.env.DB);
  const [revoked, firstUse] = await Promise.all([isGrantRevoked(c.env, parts.grantId), grantType === "refresh_token" ? claimRefreshToken(db, credential!) : true]);
  if (revoked) return oauthError("invalid_grant", "this grant was revoked");
  if (!firstUse) {
    if (!(await wasSpent(c, db, credential!, parts))) return oauthError("invalid_grant", "this refresh token is being used by another request");
    // RFC 9700 §4.14.2: a refresh token used twice means it leaked, or two parties hold it. Neither may go on.
    await revokeGrantForGood(c.env, parts.userId, parts.grantId, "refresh token reused");
    return oauthError("invalid_grant", "this refresh token was already used; the grant is revoked, sign in again");
  }
  let answer: Response | null = null;
  try {
    answer = await library(c, request);
  } finally {
    // Refused (an unknown token, the wrong client, a failure of ours): the token was not spent. A client retrying
    // must not be taken for a replay, nor a made-up token be able to spend a grant's name.
    if (grantType === "refresh_token" && !answer?.ok) await releaseRefreshToken(db, credential!);
  }
  if (!answer.ok) return answer;
  // A revocation may have landed while the library worked; its record then outvotes the tokens just stored.
  if (await isGrantRevoked(c.env, parts.grantId)) {
    await revokeGrantForGood(c.env, parts.userId, parts.grantId, "revoked while tokens were issued");
    return oauthError("invalid_grant", "this grant was revoked");
  }
  return answer;
}

/**
 * Whether a refresh token found already claimed is a genuine one spent before (a replay: revoke) rather than a
 * made-up token naming someone's grant, sent twice at once (refuse, revoke nothing). Genuine: the grant's current
 * or previous refresh token (two requests racing with it), or a claim older than any refresh takes (a made-up
 * token's claim is given back when the library refuses it, so only a token that was spent keeps one).
 */
async function wasSpent(c: Context<AppEnv>, db: ReturnType<typeof openDb>, refreshToken: string, parts: { userId: string; grantId: string }): Promise<boolean> {
  const [grant, hash, age] = await Promise.all([readGrant(c, parts.userId, parts.grantId), sha256Hex(refreshToken), claimAgeMs(db, refreshToken)]);
  if (grant && (grant.refreshTokenId === hash || grant.previousRefreshTokenId === hash)) return true;
  return age !== null && age > IN_FLIGHT_MS;
}

/** RFC 7009: the library revokes; a refresh token's revocation then revokes the grant for good (its record too). */
async function revocation(c: Context<AppEnv>, request: Request, token: string, parts: { userId: string; grantId: string }, clientIds: string[]): Promise<Response> {
  const [grant, hash] = await Promise.all([readGrant(c, parts.userId, parts.grantId), sha256Hex(token)]);
  const answer = await library(c, request);
  // RFC 7009 answers 200 for a token it did not revoke too: only the grant's own client revokes it, as in the library.
  const ownClient = !!grant?.clientId && clientIds.includes(grant.clientId);
  const wasRefreshToken = ownClient && (grant.refreshTokenId === hash || grant.previousRefreshTokenId === hash);
  if (answer.ok && wasRefreshToken) await revokeGrantForGood(c.env, parts.userId, parts.grantId, "client revoked its refresh token");
  return answer;
}

function library(c: Context<AppEnv>, request: Request): Promise<Response> {
  return authorizationServer(c.env).fetch(request, c.env, c.executionCtx as ExecutionContext);
}
