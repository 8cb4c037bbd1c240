// Holds a request until a browser job (snapshot, check) ends. A job that hangs (never picked up, its node gone
// silent past the lease, or simply too slow) is given up with a 504 whose message names the stage it was in, taken
// from the node's last progress post, and cancelled so the node stops too.
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { endJob, findJob, type JobRow } from "../jobs/queue.ts";

const POLL_MS = 200;

function msFrom(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n >= 100 ? n : fallback;
}

export function browserJobTimeouts(env: Env) {
  return {
    pickupMs: msFrom(env.NODE_PICKUP_TIMEOUT_MS, 30_000),
    totalMs: msFrom(env.BROWSER_JOB_TIMEOUT_MS, 180_000),
  };
}

const ENDED = new Set(["done", "failed", "cancelled"]);

/** The ended job row; throws 504 (and cancels the job) when it does not end in time. */
export async function waitForJob(db: Db, env: Env, jobId: string, what: string, signal?: AbortSignal): Promise<JobRow> {
  const { pickupMs, totalMs } = browserJobTimeouts(env);
  const began = Date.now();
  for (;;) {
    const job = await findJob(db, jobId);
    if (!job) throw new ApiError(500, `the ${what} job disappeared`);
    if (ENDED.has(job.status)) return job;
    const waited = Date.now() - began;
    const hung =
      job.status === "queued" && waited > pickupMs
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
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
