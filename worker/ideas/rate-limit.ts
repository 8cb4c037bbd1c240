// The idea board's write limit per caller: a fixed window counted in D1 (worker/db/fixed-window.ts), whose
// spend joins the write's own batch (board-batch.ts) and refuses it in the same round trip.
import { configOf } from "../config/config-of.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { retryAfterOf, type RateLimit } from "../db/fixed-window.ts";

export { spendCheck, spendQuery, type RateLimit } from "../db/fixed-window.ts";

export function rateLimitOf(env: Env): RateLimit {
  const config = configOf(env);
  return { limit: config.IDEA_WRITE_LIMIT, windowSeconds: config.IDEA_WRITE_WINDOW_SECONDS };
}

/** The 429 of a spent window, with when to come back. */
export function rateLimited(rule: RateLimit, now: number): ApiError {
  const retryAfter = retryAfterOf(rule, now);
  return new ApiError(
    429,
    `rate limited: at most ${rule.limit} writes per ${rule.windowSeconds} s; retry in ${retryAfter} s`,
    { retryAfter },
    { "Retry-After": String(retryAfter) },
  );
}
