// Hourly housekeeping (the Worker's scheduled handler, a Cron Trigger in wrangler.toml): rows that only ever grow
// and that nobody reads any more are deleted, so D1 stays the size of what is live.
//   jobs             ended (done, failed, cancelled) more than JOB_RETENTION_DAYS ago. A render's
//                    history is its `renders` row, which stays; a job row is only the queue's work item.
//   sessions         past their expiry (a session is refused from then on anyway).
//   idempotency_keys past their 24 hours (also pruned as requests come; this catches quiet periods).
//   rate_limits      OAuth registration counters whose window has ended (one per caller address; an ended window
//                    counts as none), and OAuth refresh-token claims older than any grant lives
//                    (worker/oauth/refresh-claims.ts), and client metadata fetch counters whose window has ended.
// Queued and running jobs are never touched, whatever their age: the ProjectRoom's watchdog ends those.
import { and, inArray, lt } from "drizzle-orm";
import { configOf } from "../config/config-of.ts";
import { openDb } from "../db/client.ts";
import { idempotencyKeys } from "../db/schema/idempotency.ts";
import { sessions } from "../db/schema/identity.ts";
import { jobs } from "../db/schema/renders.ts";
import type { Env } from "../env.ts";
import { IDEMPOTENCY_TTL_HOURS } from "../http/idempotency.ts";
import { pruneRegistrationCounts, registrationLimitsOf } from "../limits/registration-limit.ts";
import { metadataFetchLimitOf, pruneMetadataFetchCounts } from "../oauth/metadata-fetch-limit.ts";
import { pruneRefreshClaims } from "../oauth/refresh-claims.ts";

const DAY_MS = 86_400_000;

export function jobRetentionMs(env: Env): number {
  return configOf(env).JOB_RETENTION_DAYS * DAY_MS;
}

export interface Pruned {
  jobs: number;
  sessions: number;
  idempotencyKeys: number;
  registrationCounters: number;
  refreshClaims: number;
  metadataFetchCounters: number;
}

export async function pruneExpired(env: Env, now = Date.now()): Promise<Pruned> {
  const db = openDb(env.DB);
  const ended = await db
    .delete(jobs)
    .where(and(inArray(jobs.status, ["done", "failed", "cancelled"]), lt(jobs.finishedAt, now - jobRetentionMs(env))))
    .returning({ id: jobs.id });
  const expired = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.idHash });
  const keys = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_HOURS * 3_600_000))
    .returning({ key: idempotencyKeys.key });
  const registrationCounters = await pruneRegistrationCounts(db, registrationLimitsOf(env), now);
  const refreshClaims = await pruneRefreshClaims(db, now);
  const metadataFetchCounters = await pruneMetadataFetchCounts(db, metadataFetchLimitOf(env), now);
  return { jobs: ended.length, sessions: expired.length, idempotencyKeys: keys.length, registrationCounters, refreshClaims, metadataFetchCounters };
}
