// Each authorization request that names its client by a metadata document URL may make the Worker fetch that URL
// (the library caches a document only when its origin allows it). Such requests are made only by a signed-in
// person (consent.ts), and counted per person in fixed windows (db/fixed-window.ts: one upsert, in the
// request's one D1 batch behind the credential guard), so no one can make the studio fetch on and on.
import { and, like, lt } from "drizzle-orm";
import { configOf } from "../config/config-of.ts";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema/ideas.ts";
import { whichGuardRefused } from "../db/sql-guard.ts";
import type { Env } from "../env.ts";
import { retryAfterOf, spendCheck, spendQuery, type RateLimit } from "../db/fixed-window.ts";
import { deleteInBatches, type DeleteBudget, type Deleted } from "../db/batched-delete.ts";

const PREFIX = "oauth-metadata:";

export function metadataFetchLimitOf(env: Env): RateLimit {
  const config = configOf(env);
  return { limit: config.OAUTH_CLIENT_METADATA_FETCHES_PER_USER, windowSeconds: config.OAUTH_CLIENT_METADATA_WINDOW_SECONDS };
}

/** Counts one metadata fetch for this person: null when allowed, else the seconds until they may again. */
export async function spendMetadataFetch(db: Db, rule: RateLimit, userId: string, now = Date.now()): Promise<number | null> {
  const key = `${PREFIX}user:${userId}`;
  try {
    await spendQuery(db, key, rule, now);
    return null;
  } catch (err) {
    if (await whichGuardRefused(db, [spendCheck(key, rule, now)], err)) return retryAfterOf(rule, now);
    throw err;
  }
}

/** The counters of windows that have ended: for the hourly housekeeping, in batches. */
export function pruneMetadataFetchCounts(db: Db, rule: RateLimit, now: number, budget: DeleteBudget): Promise<Deleted> {
  return deleteInBatches(db, rateLimits, and(like(rateLimits.caller, `${PREFIX}%`), lt(rateLimits.windowStart, now - rule.windowSeconds * 1000))!, budget);
}
