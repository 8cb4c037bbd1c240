// Per-user caps on the work that occupies render nodes: renders in progress (queued or rendering) across a user's
// projects, snapshot and check jobs in flight, preview servers running. Past a cap the request answers 429 naming
// the limit, with Retry-After, and nothing is queued. (One render per project is a separate rule of the API
// reference: a second POST on the same project returns the running render, never a 429.)
import { configOf } from "../config/config-of.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";

export type CappedWork = "render" | "snapshot" | "check" | "preview";

interface CapRule {
  /** The setting that holds the cap (worker/config/settings.ts). */
  variable: "MAX_RENDERS_PER_USER" | "MAX_SNAPSHOTS_PER_USER" | "MAX_CHECKS_PER_USER" | "MAX_PREVIEWS_PER_USER";
  /** What the 429 says is at its limit. */
  what: string;
  /** A hint, in seconds, of when a slot is likely free: how long such work typically takes. */
  retryAfterSeconds: number;
  /** How a slot is freed, when waiting alone does not free it. */
  howToFree?: string;
}

export const CAP_RULES: Record<CappedWork, CapRule> = {
  render: { variable: "MAX_RENDERS_PER_USER", what: "renders in progress (queued or rendering, across your projects)", retryAfterSeconds: 30 },
  snapshot: { variable: "MAX_SNAPSHOTS_PER_USER", what: "snapshots in flight", retryAfterSeconds: 10 },
  check: { variable: "MAX_CHECKS_PER_USER", what: "checks in flight", retryAfterSeconds: 10 },
  preview: {
    variable: "MAX_PREVIEWS_PER_USER",
    what: "previews running",
    retryAfterSeconds: 60,
    howToFree: "stop one with DELETE /api/projects/<slug>/preview",
  },
};

export function capOf(env: Env, work: CappedWork): number {
  return configOf(env)[CAP_RULES[work].variable];
}

/** The 429 for a user at the cap: { error, limit, retryAfter } with a Retry-After header. */
export function capReached(env: Env, work: CappedWork): ApiError {
  const rule = CAP_RULES[work];
  const limit = capOf(env, work);
  const free = rule.howToFree ? `${rule.howToFree}, or retry` : "retry";
  return new ApiError(
    429,
    `too many ${rule.what}: at most ${limit} per user; ${free} in ${rule.retryAfterSeconds} s`,
    { limit, retryAfter: rule.retryAfterSeconds },
    { "Retry-After": String(rule.retryAfterSeconds) },
    "cap_reached",
  );
}
