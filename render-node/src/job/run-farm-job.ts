// The frame every render-farm job (render, segment, join) runs in: a scratch folder, an abort signal (the node
// stopping, or the Worker answering `cancelled` to a post), log lines and structured progress posted twice a
// second (which renews the lease, so a cancel reaches the node in under a second), and the completion, unless the
// work says the Worker already ended the job (a render that was split after its plan), or the node is stopping (the
// job is given back: giveBackJob, below, which the browser jobs' frame uses too). Never throws for a job failure: it
// completes ok:false with the reason.
import type { ProgressEvent, ProgressStage } from "../../../core/protocol/progress.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import type { CompleteRequest } from "../../../core/protocol/node-routes.ts";
import type { Binaries } from "../system/resolve-binaries.ts";
import type { JobLimits } from "../config/node-config.ts";
import { makeScratchDir, removeScratchDir } from "../system/scratch-dirs.ts";

// Twice a second, so a cancel (the answer to a post) reaches the node in under a second.
const PROGRESS_INTERVAL_MS = 500;

export interface FarmJobSettings {
  concurrency?: number | undefined;
  binaries?: Binaries | undefined;
  /** Stage bounds, scratch budget and frame reuse from the node's configuration (defaults when absent). */
  limits?: JobLimits | undefined;
  log?: ((line: string) => void) | undefined;
  /** The node is stopping: abort the job (killing its browsers and ffmpeg) and report why. */
  shutdown?: AbortSignal | undefined;
}

export interface FarmJobContext {
  work: string;
  signal: AbortSignal;
  onLine: (line: string) => void;
  /** The latest frames done; sent with the next post. */
  progress: (frame: number, total: number, fps: number | null, etaSeconds: number | null, stage: ProgressStage, reused?: number) => void;
  stage: (stage: ProgressStage) => void;
}

/** What the work returns: "completed" to report success, "ended" when the Worker already ended the job, or a
 * success with more to say: without a poster, with why (upload-finished-render.ts); what it carried from the previous render. */
export type FarmJobResult = "completed" | "ended" | { posterError?: string; carried?: CompleteRequest["carried"] };

export async function runFarmJob(
  client: NodeClient,
  job: Job,
  settings: FarmJobSettings,
  work: (context: FarmJobContext) => Promise<FarmJobResult>,
): Promise<{ ok: boolean; error?: string }> {
  const dir = await makeScratchDir(`${job.kind}-job`);
  const controller = new AbortController();
  const stopping = new Error("render node shutting down");
  // The node is stopping: the job is given back at once (another node can start while this one's browsers close).
  const giveBack: { promise: Promise<boolean> | null } = { promise: null };
  const onShutdown = () => {
    if (controller.signal.aborted) return;
    controller.abort(stopping);
    giveBack.promise = giveBackJob(client, job, settings.log);
  };
  if (settings.shutdown?.aborted) onShutdown();
  settings.shutdown?.addEventListener("abort", onShutdown, { once: true });
  let pending: string[] = [];
  let progress: ProgressEvent | undefined;
  let progressSent: ProgressEvent | undefined;
  const onLine = (line: string) => {
    pending.push(line);
    settings.log?.(`[${job.id}] ${line}`);
  };
  let posting: Promise<void> = Promise.resolve();
  const flush = () => {
    posting = posting.then(async () => {
      const lines = pending;
      pending = [];
      const sending = progress;
      try {
        const { cancelled } = await client.postProgress(job.id, lines, undefined, sending === progressSent ? undefined : sending);
        progressSent = sending;
        if (cancelled && !controller.signal.aborted) controller.abort(new Error(`${job.kind} cancelled`));
      } catch (error) {
        pending = [...lines, ...pending];
        settings.log?.(`[${job.id}] progress post failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return posting;
  };
  const timer = setInterval(() => void flush(), PROGRESS_INTERVAL_MS);
  const context: FarmJobContext = {
    work: dir,
    signal: controller.signal,
    onLine,
    progress: (frame, total, fps, etaSeconds, stage, reused) => {
      progress = { frame: Math.min(frame, total), total, fps, etaSeconds, stage, ...(reused === undefined ? {} : { reused: Math.min(reused, frame, total) }) };
    },
    stage: (stage) => {
      if (progress) progress = { ...progress, stage };
    },
  };
  let result: ({ ok: true; posterError?: string; carried?: CompleteRequest["carried"] } | { ok: false; error: string }) | null;
  try {
    const outcome = await work(context);
    controller.signal.throwIfAborted();
    result = outcome === "ended" ? null : outcome === "completed" ? { ok: true } : { ok: true, ...outcome };
  } catch (error) {
    const reason: unknown = controller.signal.reason;
    const message = controller.signal.aborted
      ? reason instanceof Error ? reason.message : `${job.kind} cancelled`
      : error instanceof Error ? error.message : String(error);
    result = { ok: false, error: message };
  } finally {
    clearInterval(timer);
    settings.shutdown?.removeEventListener("abort", onShutdown);
  }
  // Stopped by the node's own shutdown (a SIGTERM: the platform stopping a container, a deploy): the job is not the
  // user's failure, so it is not reported failed but given back (giveBackJob, below), and queued again at once for
  // another node. That try counts as an attempt, as a lost lease does (worker/renders/README.md).
  if (giveBack.promise) {
    await giveBack.promise;
    await removeScratchDir(dir);
    return { ok: false, error: "render node shutting down: the job was given back" };
  }
  try {
    await flush();
    if (result) await client.complete(job.id, result);
  } finally {
    await removeScratchDir(dir);
  }
  return result ?? { ok: true };
}

// A job the node gives back because it is stopping (SIGTERM: a container stopped, a deploy): the Worker queues it
// again at once for another node (POST /api/node/jobs/:id/release) instead of a lease later. Not the user's failure,
// so it is never completed as failed. Should the call fail, the job's lease lapses and the Worker queues it then.
/** Gives `job` back; whether the Worker put it back (false also when the call failed, said in the log). */
export async function giveBackJob(client: NodeClient, job: Job, log: ((line: string) => void) | undefined): Promise<boolean> {
  try {
    const released = await client.release(job.id, "the render node is stopping");
    log?.(`[${job.id}] given back: ${released ? `the node is stopping; the Worker queued the ${job.kind} again for another node` : "it was no longer this node's (ended, cancelled or taken over)"}`);
    return released;
  } catch (error) {
    log?.(`[${job.id}] could not give the ${job.kind} back (${error instanceof Error ? error.message : String(error)}); the Worker queues it again once its lease lapses`);
    return false;
  }
}
