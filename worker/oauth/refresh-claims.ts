// A refresh token is spent once (OAuth 2.1, RFC 9700 §4.14): its first use claims it in D1, and any later use of
// it, a replay or a second request racing the first, finds the claim and gets the whole grant revoked (token-
// endpoint.ts). The library alone keeps the previous refresh token valid as a grace and, KV having no compare-and-
// set, lets two requests spend one token at once; D1 decides atomically which request came first. The claim is a
// row of rate_limits with a limit of one (fixed-window.ts' upsert, without its window: a spent token stays spent),
// kept for the grant's lifetime and pruned by the hourly housekeeping. Keyed by the token's SHA-256, never the token.
import { and, eq, like, lt, sql } from "drizzle-orm";
import { sha256Hex } from "../auth/tokens.ts";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema/ideas.ts";
import { failWhen, whichGuardRefused, type Check } from "../db/sql-guard.ts";
import { GRANT_SECONDS } from "./lifetimes.ts";
import { deleteInBatches, type DeleteBudget, type Deleted } from "../db/batched-delete.ts";

const PREFIX = "oauth-refresh:";
const SPENT = "refresh_token_spent";

const keyOf = async (refreshToken: string) => `${PREFIX}${await sha256Hex(refreshToken)}`;

/** Claims this refresh token for this request: true on its first use, false when it was used before (a replay). */
export async function claimRefreshToken(db: Db, refreshToken: string, now = Date.now()): Promise<boolean> {
  const key = await keyOf(refreshToken);
  try {
    await db
      .insert(rateLimits)
      .values({ caller: key, windowStart: now, count: 1 })
      .onConflictDoUpdate({ target: rateLimits.caller, set: { count: sql`${rateLimits.count} + 1` } })
      .returning({ checked: failWhen(sql`${rateLimits.count} > 1`, SPENT) });
    return true;
  } catch (err) {
    // The same question asked of the state before the claim: unclaimed (`db` is the database, the primary).
    const unclaimed: Check = { marker: SPENT, holds: sql`NOT EXISTS (SELECT 1 FROM ${rateLimits} WHERE ${rateLimits.caller} = ${key})` };
    if (await whichGuardRefused(db, [unclaimed], err)) return false;
    throw err;
  }
}

/** How long ago this refresh token was first claimed, or null when it holds no claim. */
export async function claimAgeMs(db: Db, refreshToken: string, now = Date.now()): Promise<number | null> {
  const row = await db.select({ at: rateLimits.windowStart }).from(rateLimits).where(eq(rateLimits.caller, await keyOf(refreshToken))).get();
  return row ? now - row.at : null;
}

/**
 * Gives a claim back when the library refused the refresh (an unknown token, the wrong client, a storage error):
 * the token was not spent, and a client retrying after a failure of ours must not be taken for a replay.
 */
export async function releaseRefreshToken(db: Db, refreshToken: string): Promise<void> {
  await db.delete(rateLimits).where(and(eq(rateLimits.caller, await keyOf(refreshToken)), eq(rateLimits.count, 1)));
}

/** Claims older than any grant can live (the token they spent can no longer name a live grant): in batches. */
export function pruneRefreshClaims(db: Db, now: number, budget: DeleteBudget): Promise<Deleted> {
  return deleteInBatches(db, rateLimits, and(like(rateLimits.caller, `${PREFIX}%`), lt(rateLimits.windowStart, now - GRANT_SECONDS * 1000))!, budget);
}
