// Holds a request until a browser job (snapshot, check) ends. The wait is answered by the project's room, which
// is told when the job is claimed or completed (worker/renders/farm/node-routes.ts), not by polling D1; the job row is read
// again only then and at the next deadline. What to do on each read is job-decision.ts's, shared with GET
// …/snapshot/:id for a job nobody waits on. A job whose node went silent past the lease goes back to the queue for
// another node before its last attempt (MAX_JOB_ATTEMPTS). A job that hangs (never picked up, its node gone silent
// on the last attempt, or simply too slow) is given up with a 504 whose message names the stage it was in, taken from the node's
// last progress post, and cancelled so the node stops too. A job its node gave back (the node was stopping: a
// deploy, a container stopped) is queued again at once and waited for within the same bound; should no other node
// finish it in time, the answer is a retryable 503 (Retry-After), not a 504: nothing hung.
import { configOf } from "../config/config-of.ts";
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { endJob, findJob, maxJobAttempts, requeueLapsedJob, type JobRow } from "../renders/farm/queue.ts";
import { decideJob, observeJob, requeuedWatch, type JobLimits, type JobWatch } from "./job-decision.ts";
import { roomOf } from "../durable-objects/room-of.ts";
import { logEvent } from "../http/log.ts";

/** Longest a wait sleeps between reads of the job row: a node's lease is only visible in D1. */
const LEASE_CHECK_MS = 2000;
/** Retry-After of the 503 for a job its stopping node gave back that no other node finished in time. */
const GIVEN_BACK_RETRY_S = 10;

export function browserJobTimeouts(env: Env) {
  const config = configOf(env);
  return { pickupMs: config.NODE_PICKUP_TIMEOUT_MS, totalMs: config.BROWSER_JOB_TIMEOUT_MS };
}

/** The limits the decision (job-decision.ts) applies to browser jobs. */
export function browserJobLimits(env: Env): JobLimits {
  return { ...browserJobTimeouts(env), maxAttempts: maxJobAttempts(env) };
}

/** Carries out a give-up decision: the job is cancelled with the reason (its node learns it on its next post). */
export async function giveUpJob(db: Db, job: JobRow, reason: string): Promise<boolean> {
  const ended = await endJob(db, job.id, "cancelled", { error: reason });
  if (ended) logEvent("warn", "checks.job_given_up", { jobId: job.id, kind: job.kind, reason });
  return ended;
}

/** The ended job row; throws 504 (and cancels the job) when it does not end in time. */
export async function waitForJob(db: Db, env: Env, jobId: string, what: string, signal?: AbortSignal): Promise<JobRow> {
  const limits = browserJobLimits(env);
  let watch: JobWatch = { began: Date.now(), queuedAt: Date.now(), putBackAfter: 0, givenBack: false };
  for (;;) {
    const job = await findJob(db, jobId);
    if (!job) throw new ApiError(500, `the ${what} job disappeared`);
    watch = observeJob(watch, job, Date.now());
    const decision = decideJob(job, watch, Date.now(), limits, what);
    if (decision.act === "ended") return job;
    if (decision.act === "requeue") {
      // Put back unless another hand got there first (a late renewal, another reader): then the row is read again.
      const requeued = await requeueLapsedJob(db, jobId, job.nodeId);
      if (requeued) logEvent("warn", "checks.job_requeued", { jobId, what, attempt: job.attempts, stage: job.stage });
      watch = requeuedWatch(watch, job, Date.now());
      continue;
    }
    if (decision.act === "give-up" && decision.status === 503) {
      await giveUpJob(db, job, decision.reason);
      throw new ApiError(503, `${decision.reason}; nothing is wrong with the request: try again`, { retryAfter: GIVEN_BACK_RETRY_S }, { "Retry-After": String(GIVEN_BACK_RETRY_S) });
    }
    if (decision.act === "give-up" || signal?.aborted) {
      const reason = decision.act === "give-up" ? decision.reason : "the client went away";
      await giveUpJob(db, job, reason);
      throw new ApiError(504, decision.act === "give-up" ? reason : `the ${what} was abandoned`);
    }
    const sleep = Math.max(50, Math.min(decision.until - Date.now(), LEASE_CHECK_MS));
    // The room answers when the job is claimed or ends; should the room be evicted meanwhile, the call breaks and
    // the loop reads the row again.
    await roomOf(env, job)
      .awaitJobChange(jobId, sleep)
      .catch((error: unknown) => logEvent("warn", "checks.job_wait_broken", { error, answer: "reading the job again" }));
  }
}
