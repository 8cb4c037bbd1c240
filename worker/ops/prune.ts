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
// Every table is pruned in bounded batches within one budget per run (worker/db/batched-delete.ts): a backlog of any
// size is worked off an hour at a time, never in one unbounded DELETE.
import { and, inArray, lt } from "drizzle-orm";
import { configOf } from "../config/config-of.ts";
import { deleteBudget, deleteInBatches, type DeleteBudget } from "../db/batched-delete.ts";
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

/**
 * One run's budget (worker/db/batched-delete.ts): 1,000 rows a statement (a few ms of D1's writer each), at most
 * 200 statements and 20 s, well inside a Cron Trigger's limits; what is left waits an hour.
 */
export const PRUNE_BUDGET = { batchRows: 1000, statements: 200, ms: 20_000 } as const;

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
  /** The budget ran out with rows still to delete: the next run goes on. */
  more: boolean;
}

export async function pruneExpired(env: Env, now = Date.now(), budget: DeleteBudget = deleteBudget(PRUNE_BUDGET, now)): Promise<Pruned> {
  const db = openDb(env.DB);
  const ended = and(inArray(jobs.status, ["done", "failed", "cancelled"]), lt(jobs.finishedAt, now - jobRetentionMs(env)))!;
  const endedJobs = await deleteInBatches(db, jobs, ended, budget);
  const expired = await deleteInBatches(db, sessions, lt(sessions.expiresAt, now), budget);
  const keys = await deleteInBatches(db, idempotencyKeys, lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_HOURS * 3_600_000), budget);
  const registrationCounters = await pruneRegistrationCounts(db, registrationLimitsOf(env), now, budget);
  const refreshClaims = await pruneRefreshClaims(db, now, budget);
  const metadataFetchCounters = await pruneMetadataFetchCounts(db, metadataFetchLimitOf(env), now, budget);
  const all = [endedJobs, expired, keys, registrationCounters, refreshClaims, metadataFetchCounters];
  return {
    jobs: endedJobs.rows,
    sessions: expired.rows,
    idempotencyKeys: keys.rows,
    registrationCounters: registrationCounters.rows,
    refreshClaims: refreshClaims.rows,
    metadataFetchCounters: metadataFetchCounters.rows,
    more: all.some((d) => d.more),
  };
}
