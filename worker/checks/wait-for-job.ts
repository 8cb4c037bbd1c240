// Holds a request until a browser job (snapshot, check) ends. The wait is answered by the project's room, which
// is told when the job is claimed or completed (worker/renders/farm/node-routes.ts), not by polling D1; the job row is read
// again only then and at the next deadline. A job whose node went silent past the lease goes back to the queue for
// another node before its last attempt (MAX_JOB_ATTEMPTS). A job that hangs (never picked up, its node gone silent
// on the last attempt, or simply too slow) is given up with a 504 whose message names the stage it was in, taken from the node's
// last progress post, and cancelled so the node stops too. A job its node gave back (the node was stopping: a
// deploy, a container stopped) is queued again at once and waited for within the same bound; should no other node
// finish it in time, the answer is a retryable 503 (Retry-After), not a 504: nothing hung.
import { configOf } from "../config/config-of.ts";
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { endJob, findJob, isJobEnded, maxJobAttempts, requeueLapsedJob, type JobRow } from "../renders/farm/queue.ts";
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

/** The ended job row; throws 504 (and cancels the job) when it does not end in time. */
export async function waitForJob(db: Db, env: Env, jobId: string, what: string, signal?: AbortSignal): Promise<JobRow> {
  const { pickupMs, totalMs } = browserJobTimeouts(env);
  const began = Date.now();
  // When the job last went into the queue (its start, its node's death, or its node giving it back): the pickup
  // timeout counts from here.
  let queuedAt = began;
  // The attempt after which the job was last seen put back in the queue, and whether its node gave it back.
  let putBackAfter = 0;
  let givenBack = false;
  for (;;) {
    const job = await findJob(db, jobId);
    if (!job) throw new ApiError(500, `the ${what} job disappeared`);
    if (isJobEnded(job.status)) return job;
    const waited = Date.now() - began;
    // Queued again after a try this wait did not put back: its node gave it back (it was stopping, release-job.ts).
    // The request waits on for another node, within the same overall timeout.
    if (job.status === "queued" && job.attempts > putBackAfter) {
      putBackAfter = job.attempts;
      givenBack = true;
      queuedAt = Date.now();
    }
    // Its node went silent (died, or was stopped) before the last attempt: the job goes back to the queue for
    // another node, within the same overall timeout, rather than failing the caller with the node's death.
    if (job.status === "running" && (job.leaseExpiresAt ?? Infinity) < Date.now() && job.attempts < maxJobAttempts(env) && waited < totalMs) {
      // Put back unless another hand got there first (a late renewal, another waiter): then the row is read again.
      const requeued = await requeueLapsedJob(db, jobId, job.nodeId);
      if (requeued) logEvent("warn", "checks.job_requeued", { jobId, what, attempt: job.attempts, stage: job.stage });
      putBackAfter = job.attempts;
      queuedAt = Date.now();
      continue;
    }
    // Given back by a stopping node and not finished by another within the bound: nothing is wrong with the project
    // or the request, so the answer says to try again (503, Retry-After) rather than that something hung (504).
    if (givenBack && (waited > totalMs || (job.status === "queued" && Date.now() - queuedAt > pickupMs))) {
      const why = `the render node running the ${what} was stopped and gave it back, and no other node finished it within ${Math.round(totalMs / 1000)} s`;
      await endJob(db, jobId, "cancelled", { error: why });
      throw new ApiError(503, `${why}; nothing is wrong with the request: try again`, { retryAfter: GIVEN_BACK_RETRY_S }, { "Retry-After": String(GIVEN_BACK_RETRY_S) });
    }
    const hung =
      job.status === "queued" && Date.now() - queuedAt > pickupMs
        ? `no render node picked the ${what} up within ${Math.round(pickupMs / 1000)} s (stage: queued)`
        : job.status === "running" && (job.leaseExpiresAt ?? Infinity) < Date.now()
          ? `the render node stopped responding during the ${what} (stage: ${job.stage ?? "started"})`
        : waited > totalMs
          ? `the ${what} timed out after ${Math.round(totalMs / 1000)} s (stage: ${job.stage ?? "started"})`
          : null;
    if (hung || signal?.aborted) {
      await endJob(db, jobId, "cancelled", { error: hung ?? "the client went away" });
      throw new ApiError(504, hung ?? `the ${what} was abandoned`);
    }
    const nextDeadline = job.status === "queued" ? queuedAt + pickupMs : Math.min(began + totalMs, (job.leaseExpiresAt ?? Infinity) + 1);
    const sleep = Math.max(50, Math.min(nextDeadline - Date.now(), LEASE_CHECK_MS));
    // The room answers when the job is claimed or ends; should the room be evicted meanwhile, the call breaks and
    // the loop reads the row again.
    await roomOf(env, job)
      .awaitJobChange(jobId, sleep)
      .catch((error: unknown) => logEvent("warn", "checks.job_wait_broken", { error, answer: "reading the job again" }));
  }
}
