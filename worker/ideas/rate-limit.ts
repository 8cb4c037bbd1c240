// Fixed-window write limit per caller, counted in D1 with one upsert (no read-then-write race): the first write
// of a window resets the counter, later ones add to it.
import { sql } from "drizzle-orm";
import { configOf } from "../config/config-of.ts";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema/ideas.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export function rateLimitOf(env: Env): RateLimit {
  const config = configOf(env);
  return { limit: config.IDEA_WRITE_LIMIT, windowSeconds: config.IDEA_WRITE_WINDOW_SECONDS };
}

/** Counts one write for `caller`; throws 429 with Retry-After once the window's budget is spent. */
export async function spendWrite(db: Db, caller: string, rule: RateLimit, now = Date.now()): Promise<void> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = now - (now % windowMs);
  const row = await db
    .insert(rateLimits)
    .values({ caller, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.caller,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} = excluded.window_start THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart: sql`excluded.window_start`,
      },
    })
    .returning({ count: rateLimits.count })
    .get();
  if ((row?.count ?? 1) > rule.limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    throw new ApiError(
      429,
      `rate limited: at most ${rule.limit} writes per ${rule.windowSeconds} s; retry in ${retryAfter} s`,
      { retryAfter },
      { "Retry-After": String(retryAfter) },
    );
  }
}
