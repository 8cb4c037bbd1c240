// OAuth dynamic client registration (POST /oauth/register) is open to anyone and stores a client in KV each time,
// so it is limited twice in fixed windows (fixed-window.ts): per caller address, and for everyone together (the
// cap that holds when a caller has many addresses). Both spends go in one D1 batch before the library stores
// anything: over either limit, the batch rolls back whole (neither count moves) and the answer is a 429 with
// Retry-After; no client is stored.
import { and, like, lt } from "drizzle-orm";
import { configOf } from "../config/config-of.ts";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema/ideas.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { formatIp, parseIp, unmapIpv4, isIpv4Mapped } from "../webhooks/ip-address.ts";
import { isOverLimit, retryAfterOf, spendQuery, type RateLimit } from "./fixed-window.ts";

/** Every key of these limits starts so (the rate_limits table also counts idea-board writers). */
const PREFIX = "oauth-register:";
const PER_ADDRESS = "oauth_register_address";
const FOR_ALL = "oauth_register_total";

export interface RegistrationLimits {
  perAddress: RateLimit;
  total: RateLimit;
}

export function registrationLimitsOf(env: Env): RegistrationLimits {
  const config = configOf(env);
  const windowSeconds = config.OAUTH_REGISTRATION_WINDOW_SECONDS;
  return { perAddress: { limit: config.OAUTH_REGISTRATIONS_PER_ADDRESS, windowSeconds }, total: { limit: config.OAUTH_REGISTRATIONS_TOTAL, windowSeconds } };
}

/**
 * Whom a registration is counted against: the caller's address as Cloudflare reports it (CF-Connecting-IP), an
 * IPv6 one by its /64 (one host's whole range), or "unknown" without one (local runs), which all such callers share.
 */
export function addressKey(request: Request): string {
  const parsed = parseIp(request.headers.get("CF-Connecting-IP")?.trim() ?? "");
  if (!parsed) return `${PREFIX}address:unknown`;
  const address = isIpv4Mapped(parsed) ? unmapIpv4(parsed) : parsed;
  if (address.version === 4) return `${PREFIX}address:${formatIp(address)}`;
  return `${PREFIX}address:${formatIp({ version: 6, bytes: [...address.bytes.slice(0, 8), ...new Array<number>(8).fill(0)] })}/64`;
}

/** Counts one registration for the caller and for all; throws the 429 when either window is spent. */
export async function spendRegistration(db: Db, limits: RegistrationLimits, request: Request, now = Date.now()): Promise<void> {
  try {
    await db.batch([spendQuery(db, addressKey(request), limits.perAddress, now, PER_ADDRESS), spendQuery(db, `${PREFIX}total`, limits.total, now, FOR_ALL)]);
  } catch (err) {
    if (isOverLimit(err, PER_ADDRESS)) throw registrationLimited(limits.perAddress, now, "from one address");
    if (isOverLimit(err, FOR_ALL)) throw registrationLimited(limits.total, now, "in all");
    throw err;
  }
}

function registrationLimited(rule: RateLimit, now: number, scope: string): ApiError {
  const retryAfter = retryAfterOf(rule, now);
  return new ApiError(
    429,
    `rate limited: at most ${rule.limit} OAuth client registrations ${scope} per ${rule.windowSeconds} s; retry in ${retryAfter} s`,
    { retryAfter },
    { "Retry-After": String(retryAfter) },
    "rate_limited",
  );
}

/** The counters of windows that have ended (an ended window counts as none): for the hourly housekeeping. */
export async function pruneRegistrationCounts(db: Db, limits: RegistrationLimits, now: number): Promise<number> {
  const ended = now - limits.total.windowSeconds * 1000;
  const gone = await db.delete(rateLimits).where(and(like(rateLimits.caller, `${PREFIX}%`), lt(rateLimits.windowStart, ended))).returning({ key: rateLimits.caller });
  return gone.length;
}
