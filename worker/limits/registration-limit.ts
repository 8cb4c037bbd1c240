// OAuth dynamic client registration (POST /oauth/register) is open to anyone and stores a client in KV each time,
// so it is limited in fixed windows (fixed-window.ts) per network, at several widths, so that no one network can
// use up what everyone else needs:
//   address  an IPv4 address or an IPv6 /64 (one host's range)          OAUTH_REGISTRATIONS_PER_ADDRESS
//   network  an IPv4 /24 or an IPv6 /56 (a customer's usual delegation)  OAUTH_REGISTRATIONS_PER_NETWORK
//   site     an IPv6 /48 (the widest a single site is given)             OAUTH_REGISTRATIONS_PER_SITE
// and for everyone together by counting *networks*, not registrations (the widest bucket: an IPv4 /24 or an IPv6
// /48): a network adds one however much it registers, so one network cannot lock everyone out the way a cap on
// all registrations could (one /56 used to spend all 300 of them). All spends go in one D1 batch before the library
// stores anything: over any limit the batch rolls back whole (no count moves) and the answer is a 429 with
// Retry-After; no client is stored. A registration nobody uses is deleted after a day (unused-clients.ts).
import { and, like, lt, sql } from "drizzle-orm";
import { configOf } from "../config/config-of.ts";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema/ideas.ts";
import { failWhen, whichGuardRefused, type Guard } from "../db/sql-guard.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { formatIp, parseIp, unmapIpv4, isIpv4Mapped, type IpAddress } from "../net/ip-address.ts";
import { retryAfterOf, spendCheck, spendQuery, windowStartOf, type RateLimit } from "../db/fixed-window.ts";
import { deleteInBatches, type DeleteBudget, type Deleted } from "../db/batched-delete.ts";

/** Every key of these limits starts so (the rate_limits table also counts idea-board writers). */
const PREFIX = "oauth-register:";
const NETWORKS = "oauth_register_all_networks";
/** The one counter of registering networks, for everyone together. */
const NETWORKS_KEY = `${PREFIX}networks`;

export interface RegistrationLimits {
  perAddress: RateLimit;
  perNetwork: RateLimit;
  perSite: RateLimit;
  /** How many distinct networks (IPv4 /24, IPv6 /48) may register per window, all together. */
  networks: RateLimit;
}

export function registrationLimitsOf(env: Env): RegistrationLimits {
  const config = configOf(env);
  const windowSeconds = config.OAUTH_REGISTRATION_WINDOW_SECONDS;
  return {
    perAddress: { limit: config.OAUTH_REGISTRATIONS_PER_ADDRESS, windowSeconds },
    perNetwork: { limit: config.OAUTH_REGISTRATIONS_PER_NETWORK, windowSeconds },
    perSite: { limit: config.OAUTH_REGISTRATIONS_PER_SITE, windowSeconds },
    networks: { limit: config.OAUTH_REGISTRATION_NETWORKS, windowSeconds },
  };
}

/** One bucket a registration is counted in: its key, its rule, and how its refusal names it. */
export interface Bucket {
  key: string;
  rule: RateLimit;
  scope: string;
  marker: string;
}

/** The address with its bits past `bits` cleared, written with its prefix length. */
function prefixOf(address: IpAddress, bits: number): string {
  const bytes = address.bytes.map((byte, i) => (i * 8 >= bits ? 0 : i * 8 + 8 <= bits ? byte : byte & (0xff << (8 - (bits - i * 8)))));
  return `${formatIp({ version: address.version, bytes } as IpAddress)}/${bits}`;
}

/**
 * The buckets of a caller, narrowest first; the last is its widest network, the one the count of networks counts.
 * The caller's address is the one Cloudflare reports (CF-Connecting-IP); without one (local runs) every such
 * caller shares one bucket.
 */
export function bucketsOf(request: Request, limits: RegistrationLimits): Bucket[] {
  const parsed = parseIp(request.headers.get("CF-Connecting-IP")?.trim() ?? "");
  if (!parsed) return [{ key: `${PREFIX}address:unknown`, rule: limits.perAddress, scope: "from one address", marker: "oauth_register_address" }];
  const address = isIpv4Mapped(parsed) ? unmapIpv4(parsed) : parsed;
  const bucket = (kind: string, bits: number, rule: RateLimit, scope: string): Bucket => ({ key: `${PREFIX}${kind}:${prefixOf(address, bits)}`, rule, scope, marker: `oauth_register_${kind}` });
  if (address.version === 4) {
    return [bucket("address", 32, limits.perAddress, "from one address"), bucket("network", 24, limits.perNetwork, "from one IPv4 /24")];
  }
  return [bucket("address", 64, limits.perAddress, "from one address (an IPv6 /64)"), bucket("network", 56, limits.perNetwork, "from one IPv6 /56"), bucket("site", 48, limits.perSite, "from one IPv6 /48")];
}

/** The count of the widest bucket in its window, NULL when it has none. */
const widestCount = (widest: Bucket, now: number) =>
  sql`(SELECT ${rateLimits.count} FROM ${rateLimits} WHERE ${rateLimits.caller} = ${widest.key} AND ${rateLimits.windowStart} = ${windowStartOf(widest.rule, now)})`;

/**
 * Counts one more registering network, only when this is the first registration of `widest` in the window (its
 * count, just spent in the same batch, is 1); fails as SQL past the limit of networks.
 */
function networkSpendQuery(db: Db, widest: Bucket, rule: RateLimit, now: number) {
  const windowStart = windowStartOf(rule, now);
  const first = sql`${widestCount(widest, now)} = 1`;
  return db
    .insert(rateLimits)
    .select(db.select({ caller: sql`${NETWORKS_KEY}`.as("caller"), windowStart: sql`${windowStart}`.as("window_start"), count: sql`1`.as("count") }).from(sql`(SELECT 1)`).where(first))
    .onConflictDoUpdate({
      target: rateLimits.caller,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} = excluded.window_start THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart: sql`excluded.window_start`,
      },
    })
    .returning({ checked: failWhen(sql`${rateLimits.count} > ${rule.limit}`, NETWORKS) });
}

/**
 * The batch's checks in its order, asked of the counters before it (whichGuardRefused, after it failed): each bucket's
 * spend, then the count of networks, which is spent only when the widest bucket had no registration in its window.
 */
function registrationChecks(buckets: Bucket[], networks: RateLimit, now: number): Guard[] {
  const widest = buckets[buckets.length - 1]!;
  const perBucket = buckets.map((b) => ({ ...spendCheck(b.key, b.rule, now, b.marker), refusal: () => registrationLimited(b.rule, now, `at most ${b.rule.limit} OAuth client registrations ${b.scope}`) }));
  const counted = spendCheck(NETWORKS_KEY, networks, now, NETWORKS);
  const networksCheck = {
    marker: NETWORKS,
    holds: sql`(coalesce(${widestCount(widest, now)}, 0) <> 0 OR (${counted.holds}))`,
    refusal: () => registrationLimited(networks, now, `OAuth client registrations from at most ${networks.limit} networks`),
  };
  return [...perBucket, networksCheck];
}

/** Counts one registration in each of the caller's buckets; throws the 429 when any window is spent. */
export async function spendRegistration(db: Db, limits: RegistrationLimits, request: Request, now = Date.now()): Promise<void> {
  const buckets = bucketsOf(request, limits);
  const widest = buckets[buckets.length - 1]!;
  const spends = buckets.map((b) => spendQuery(db, b.key, b.rule, now, b.marker));
  try {
    await db.batch([spends[0]!, ...spends.slice(1), networkSpendQuery(db, widest, limits.networks, now)]);
  } catch (err) {
    // `db` is the database itself (the primary), so the read-back, if any, reads what the batch met.
    const refused = await whichGuardRefused(db, registrationChecks(buckets, limits.networks, now), err);
    if (!refused) throw err;
    throw await refused.refusal();
  }
}

function registrationLimited(rule: RateLimit, now: number, what: string): ApiError {
  const retryAfter = retryAfterOf(rule, now);
  return new ApiError(429, `rate limited: ${what} per ${rule.windowSeconds} s; retry in ${retryAfter} s`, { retryAfter }, { "Retry-After": String(retryAfter) }, "rate_limited");
}

/** The counters of windows that have ended (an ended window counts as none): for the hourly housekeeping, in batches. */
export function pruneRegistrationCounts(db: Db, limits: RegistrationLimits, now: number, budget: DeleteBudget): Promise<Deleted> {
  const ended = now - limits.perAddress.windowSeconds * 1000;
  return deleteInBatches(db, rateLimits, and(like(rateLimits.caller, `${PREFIX}%`), lt(rateLimits.windowStart, ended))!, budget);
}
