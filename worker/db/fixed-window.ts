// Fixed-window limits counted in D1 (the rate_limits table, one row per counted key) with one upsert each, so there
// is no read-then-write race: the first spend of a window resets the counter, later ones add to it. Used by the
// idea board's write limit (ideas/rate-limit.ts) and OAuth client registration (registration-limit.ts).
//
// The upsert is also the limit's check. Its RETURNING clause fails as SQL once the count passes the limit
// (worker/db/sql-guard.ts says how), so put in a D1 batch with the write it pays for, it refuses that write in the
// same round trip: D1 runs a batch as one transaction and rolls all of it back, the count included.
import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { failWhen, type Check } from "./sql-guard.ts";
import { rateLimits } from "./schema/ideas.ts";

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

const OVER_LIMIT = "rate_limit_exceeded";

export const windowStartOf = (rule: RateLimit, now: number) => now - (now % (rule.windowSeconds * 1000));

/** Whole seconds until the window of `now` ends (at least 1): the Retry-After of a refusal. */
export const retryAfterOf = (rule: RateLimit, now: number) => Math.max(1, Math.ceil((windowStartOf(rule, now) + rule.windowSeconds * 1000 - now) / 1000));

/**
 * The upsert that counts one spend for `key`; it fails as SQL when the window's budget is spent (spendCheck, with
 * sql-guard.ts' whichGuardRefused, tells that failure). `marker` names the limit in it when a batch spends on several
 * (registration-limit.ts).
 */
export function spendQuery(db: Db, key: string, rule: RateLimit, now: number, marker = OVER_LIMIT) {
  return db
    .insert(rateLimits)
    .values({ caller: key, windowStart: windowStartOf(rule, now), count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.caller,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} = excluded.window_start THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart: sql`excluded.window_start`,
      },
    })
    .returning({
      // Evaluated on the row as written, so SQLite cannot fold it into a constant ahead of time.
      checked: failWhen(sql`${rateLimits.count} > ${rule.limit}`, marker),
    });
}

/**
 * The check spendQuery makes, for whichGuardRefused (sql-guard.ts) after its batch failed: whether one more spend on
 * `key` stays within the window's budget, asked of the counter as it was before (the failed batch left it so).
 */
export function spendCheck(key: string, rule: RateLimit, now: number, marker = OVER_LIMIT): Check {
  const counted = sql`(SELECT ${rateLimits.count} FROM ${rateLimits} WHERE ${rateLimits.caller} = ${key} AND ${rateLimits.windowStart} = ${windowStartOf(rule, now)})`;
  return { marker, holds: sql`coalesce(${counted}, 0) < ${rule.limit}` };
}
