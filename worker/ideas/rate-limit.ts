// Fixed-window write limit per caller, counted in D1 with one upsert (no read-then-write race): the first write
// of a window resets the counter, later ones add to it.
//
// The upsert is also the limit's check. Its RETURNING clause fails as SQL once the count passes the limit
// (worker/db/sql-guard.ts says how), so put in a D1 batch with the write it pays for (board-batch.ts), it refuses
// that write in the same round trip: D1 runs a batch as one transaction and rolls all of it back, the count included.
import { sql } from "drizzle-orm";
import { configOf } from "../config/config-of.ts";
import type { Db } from "../db/client.ts";
import { failWhen, failedOn } from "../db/sql-guard.ts";
import { rateLimits } from "../db/schema/ideas.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

const OVER_LIMIT = "rate_limit_exceeded";

export function rateLimitOf(env: Env): RateLimit {
  const config = configOf(env);
  return { limit: config.IDEA_WRITE_LIMIT, windowSeconds: config.IDEA_WRITE_WINDOW_SECONDS };
}

const windowStartOf = (rule: RateLimit, now: number) => now - (now % (rule.windowSeconds * 1000));

/** The upsert that counts one write for `caller`; it fails as SQL (isOverLimit) when the window's budget is spent. */
export function spendQuery(db: Db, caller: string, rule: RateLimit, now: number) {
  return db
    .insert(rateLimits)
    .values({ caller, windowStart: windowStartOf(rule, now), count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.caller,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} = excluded.window_start THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart: sql`excluded.window_start`,
      },
    })
    .returning({
      // Evaluated on the row as written, so SQLite cannot fold it into a constant ahead of time.
      checked: failWhen(sql`${rateLimits.count} > ${rule.limit}`, OVER_LIMIT),
    });
}

/** Whether a failed statement or batch failed because the spend passed the limit (and nothing else). */
export function isOverLimit(err: unknown): boolean {
  return failedOn(err, OVER_LIMIT);
}

/** The 429 of a spent window, with when to come back. */
export function rateLimited(rule: RateLimit, now: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil((windowStartOf(rule, now) + rule.windowSeconds * 1000 - now) / 1000));
  return new ApiError(
    429,
    `rate limited: at most ${rule.limit} writes per ${rule.windowSeconds} s; retry in ${retryAfter} s`,
    { retryAfter },
    { "Retry-After": String(retryAfter) },
  );
}
