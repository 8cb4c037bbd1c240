// The revoked-grant record: one KV entry per revoked grant, written before the library deletes the grant and its
// tokens, and read on every use of a token of the grant (an access token on /mcp, a code or refresh token at the
// token endpoint). Why: the library deletes a grant's tokens by listing them and deleting each, and a refresh that
// read the grant just before writes the grant and a new access token back afterwards; KV has no transaction to
// stop that. A token minted so would live its full hour. With the record, every token of a revoked grant is
// refused, whenever and wherever it was written. It lives as long as anything of the grant can (the grant's 30
// days plus an access token's hour), so a refresh-token claim or an old token can never outlive it.
// KV, not D1: reading it costs /mcp no trip to D1's primary (bench/README.md); it is immediate where written and
// reaches other locations as KV does, within about a minute, like the deletions it backs.
import type { Env } from "../env.ts";
import { ACCESS_TOKEN_SECONDS, GRANT_SECONDS } from "./lifetimes.ts";

const PREFIX = "revoked-grant:";

const keyOf = (grantId: string) => `${PREFIX}${grantId}`;

/** Whether this grant was revoked (a token of it is then refused, however new). */
export async function isGrantRevoked(env: Env, grantId: string): Promise<boolean> {
  return (await env.OAUTH_KV.get(keyOf(grantId))) !== null;
}

/** Records the grant as revoked (first, before anything of it is deleted: grants.ts revokeGrantForGood). */
export async function recordRevokedGrant(env: Env, userId: string, grantId: string, reason: string): Promise<void> {
  await env.OAUTH_KV.put(keyOf(grantId), JSON.stringify({ userId, reason, at: new Date().toISOString() }), { expirationTtl: GRANT_SECONDS + ACCESS_TOKEN_SECONDS });
}
