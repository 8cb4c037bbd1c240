// What to do with a browser job (snapshot, check) row now, whoever looks at it: the request that waits for the job
// (wait-for-job.ts) on every read, and GET …/snapshot/:id for a job nobody waits on, once per read. One decision so a
// job nobody waits on is neither a silent success nor stuck forever. Pure: the row, what the reader saw before and
// the time come in; the caller does the I/O (requeue, end, answer).
//  - ended: nothing to do.
//  - a running job whose node went silent (its lease lapsed) before the last attempt (MAX_JOB_ATTEMPTS) goes back
//    to the queue for another node, within the overall bound.
//  - given up, and cancelled so the node stops too, with a reason naming the stage: a job nobody picked up within
//    the pickup timeout, whose node went silent on the last attempt, or that outlived the overall bound; a 504. A
//    job its stopping node gave back (release-job.ts) that no other node finished in time is a 503 (retry): nothing
//    hung.
//  - otherwise wait, at most until the next deadline.
import { isJobEnded, type JobRow } from "../renders/farm/queue.ts";

export interface JobLimits {
  pickupMs: number;
  totalMs: number;
  maxAttempts: number;
}

/** What the reader knows beyond the row. */
export interface JobWatch {
  /** When the job was queued first: the overall bound counts from here. */
  began: number;
  /** When it last went into the queue (its start, its node's death or give-back); null when unknown (only the overall bound applies). */
  queuedAt: number | null;
  /** The attempt after which it was last seen put back in the queue. */
  putBackAfter: number;
  /** Whether a stopping node gave it back. */
  givenBack: boolean;
}

export type JobDecision =
  | { act: "ended" }
  | { act: "requeue" }
  | { act: "give-up"; status: 503 | 504; reason: string }
  | { act: "wait"; until: number };

/** The stage a stopping node's give-back leaves on the row until another node reports (renders/projection.ts, release-job.ts). */
const GIVEN_BACK_STAGE = /^given back/;

/** A reader with no memory of the job (GET …/snapshot/:id): what the row alone says. */
export function watchFromRow(job: JobRow): JobWatch {
  return {
    began: job.createdAt,
    // Never claimed: queued since it was created. Put back after a claim: when is not kept, so the overall bound rules.
    queuedAt: job.attempts === 0 ? job.createdAt : null,
    putBackAfter: job.attempts,
    givenBack: job.status === "queued" && GIVEN_BACK_STAGE.test(job.stage ?? ""),
  };
}

/** What a reader that watched the job learns from this read: a try it did not put back came back to the queue. */
export function observeJob(watch: JobWatch, job: JobRow, now: number): JobWatch {
  // Queued again after a try this reader did not put back: its node gave it back (it was stopping, release-job.ts).
  if (job.status === "queued" && job.attempts > watch.putBackAfter) return { ...watch, putBackAfter: job.attempts, givenBack: true, queuedAt: now };
  return watch;
}

/** After the caller put a lapsed job back in the queue. */
export function requeuedWatch(watch: JobWatch, job: JobRow, now: number): JobWatch {
  return { ...watch, putBackAfter: job.attempts, queuedAt: now };
}

const seconds = (ms: number) => Math.round(ms / 1000);

export function decideJob(job: JobRow, watch: JobWatch, now: number, limits: JobLimits, what: string): JobDecision {
  if (isJobEnded(job.status)) return { act: "ended" };
  const { pickupMs, totalMs, maxAttempts } = limits;
  const waited = now - watch.began;
  const lapsed = job.status === "running" && (job.leaseExpiresAt ?? Infinity) < now;
  const pickupLapsed = job.status === "queued" && watch.queuedAt !== null && now - watch.queuedAt > pickupMs;
  // Its node went silent (died, or was stopped) before the last attempt: back to the queue for another node.
  if (lapsed && job.attempts < maxAttempts && waited < totalMs) return { act: "requeue" };
  // Given back by a stopping node and not finished by another within the bound: nothing is wrong with the project
  // or the request, so the answer says to try again (503) rather than that something hung (504).
  if (watch.givenBack && (waited > totalMs || pickupLapsed)) {
    return { act: "give-up", status: 503, reason: `the render node running the ${what} was stopped and gave it back, and no other node finished it within ${seconds(totalMs)} s` };
  }
  const hung = pickupLapsed
    ? `no render node picked the ${what} up within ${seconds(pickupMs)} s (stage: queued)`
    : lapsed
      ? `the render node stopped responding during the ${what} (stage: ${job.stage ?? "started"})`
      : waited > totalMs
        ? `the ${what} timed out after ${seconds(totalMs)} s (stage: ${job.stage ?? "started"})`
        : null;
  if (hung) return { act: "give-up", status: 504, reason: hung };
  const until = job.status === "queued" ? Math.min(watch.queuedAt === null ? Infinity : watch.queuedAt + pickupMs, watch.began + totalMs) : Math.min(watch.began + totalMs, (job.leaseExpiresAt ?? Infinity) + 1);
  return { act: "wait", until };
}
