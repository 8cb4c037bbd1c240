// Snapshot, check and preview jobs within the user's cap (work-caps.ts). The cap is enforced where the job is
// queued, in one statement; `requireJobSlot` is the early check for a route that must change something (clear
// snapshots/) before it queues, so that an ordinary 429 changes nothing.
import { browserJobTimeouts } from "./wait-for-job.ts";
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { announceWork } from "../renders/farm/job-board.ts";
import { countLiveJobs, enqueueJobWithin, type LiveJobWindow } from "../renders/farm/queue.ts";
import { capOf, capReached } from "../limits/work-caps.ts";
import { wakeRenderNodes } from "../renders/farm/render-node-container.ts";
import { logEvent } from "../http/log.ts";

type CappedJobKind = "snapshot" | "check" | "preview";

/** Waiters give a queued job up after the pickup timeout; one still queued well past it was abandoned. */
const ABANDONED_GRACE_MS = 10_000;

function liveWindow(env: Env, now = Date.now()): LiveJobWindow {
  return { now, queuedSince: now - browserJobTimeouts(env).pickupMs - ABANDONED_GRACE_MS };
}

export async function requireJobSlot(db: Db, env: Env, userId: string, kind: CappedJobKind): Promise<void> {
  if ((await countLiveJobs(db, userId, kind, liveWindow(env))) >= capOf(env, kind)) throw capReached(env, kind);
}

/**
 * Queues the job, or answers 429 (queuing nothing) when the user is at the cap for its kind. Where render nodes are
 * containers, starts one for it (the queue counted with this job in it): a snapshot from cold gets a node.
 */
export async function enqueueCappedJob(
  db: Db,
  env: Env,
  job: { id: string; userId: string; slug: string; kind: CappedJobKind; options: unknown },
): Promise<void> {
  if (!(await enqueueJobWithin(db, job, capOf(env, job.kind), liveWindow(env)))) throw capReached(env, job.kind);
  await announceWork(env, job.kind);
  // A failed start is in the log (containers.start_failed); the waiter's pickup timeout answers the caller.
  await wakeRenderNodes(env).catch((error: unknown) => logEvent("error", "containers.wake_failed", { kind: job.kind, error }));
}
