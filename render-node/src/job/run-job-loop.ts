// The node's main loop: claim a job of the given kinds, run it, repeat; back off while the Worker is unreachable.
// Preview jobs last until stopped, so they run alongside the loop instead of blocking it.
import type { Job, JobKind, NodeClient } from "../protocol/node-protocol-client.ts";
import { runCheckJob } from "./run-check-job.ts";
import { runPreviewJob } from "./run-preview-job.ts";
import { runJoinJob } from "./run-join-job.ts";
import { runRenderJob } from "./run-render-job.ts";
import { runSegmentJob } from "./run-segment-job.ts";
import { runSnapshotJob } from "./run-snapshot-job.ts";
import { resolveBinaries, type Binaries } from "../system/resolve-binaries.ts";
import type { JobLimits } from "../config/node-config.ts";
import type { JobsInHand } from "./jobs-in-hand.ts";

const MAX_BACKOFF_MS = 30_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); done(); }, { once: true });
  });
}

export interface JobLoopOptions {
  client: NodeClient;
  nodeId: string;
  /** Which job kinds this loop claims; default render only. */
  kinds?: readonly JobKind[] | undefined;
  concurrency?: number | undefined;
  binaries?: Binaries | undefined;
  /** From the node's configuration; absent: the defaults (DEFAULT_STAGE_BOUNDS, DEFAULT_SCRATCH_BUDGET, reuse on). */
  limits?: JobLimits | undefined;
  /** Preview servers: bind address, first port, and how long one may go without a request (default 127.0.0.1, 3002, 10 min). */
  previewHost?: string | undefined;
  previewFirstPort?: number | undefined;
  previewIdleMs?: number | undefined;
  signal: AbortSignal;
  log: (line: string) => void;
  /** Counts the jobs held, for the health answer. */
  inHand?: JobsInHand | undefined;
}

async function runOne(options: JobLoopOptions, job: Job): Promise<{ ok: boolean; error?: string }> {
  const { client, log } = options;
  const farm = { concurrency: options.concurrency, binaries: options.binaries, limits: options.limits, log, shutdown: options.signal };
  if (job.kind === "render") return runRenderJob(client, job, farm);
  if (job.kind === "segment") return runSegmentJob(client, job, farm);
  if (job.kind === "join") return runJoinJob(client, job, farm);
  const binaries = options.binaries ?? (await resolveBinaries());
  if (job.kind === "snapshot") return runSnapshotJob(client, job, { binaries, bounds: options.limits?.bounds, log });
  if (job.kind === "check") return runCheckJob(client, job, { binaries, bounds: options.limits?.bounds, log });
  return runPreviewJob(client, job, { host: options.previewHost, firstPort: options.previewFirstPort, idleMs: options.previewIdleMs, log });
}

/** Claims and runs jobs one at a time (previews in the background) until `signal` aborts. */
export async function runJobLoop(options: JobLoopOptions): Promise<void> {
  let backoff = 1000;
  // A loop that renders also takes the segments and joins of split renders.
  const given = options.kinds ?? ["render"];
  const kinds: readonly JobKind[] = given.includes("render") ? [...new Set<JobKind>([...given, "segment", "join"])] : given;
  while (!options.signal.aborted) {
    let job;
    try {
      job = await options.client.claim(options.nodeId, options.signal, kinds);
      backoff = 1000;
    } catch (error) {
      if (options.signal.aborted) break;
      options.log(`claim failed (${error instanceof Error ? error.message : String(error)}); retrying in ${backoff / 1000} s`);
      await sleep(backoff, options.signal);
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
      continue;
    }
    if (!job) continue;
    const claimed = job;
    const run = runOne(options, claimed);
    const running = (options.inHand ? options.inHand.hold(run) : run).then(
      (result) => options.log(`job ${claimed.id} (${claimed.kind}) ${result.ok ? "done" : `failed: ${result.error}`}`),
      (error: unknown) => options.log(`job ${claimed.id}: could not report to the Worker: ${error instanceof Error ? error.message : String(error)}`),
    );
    if (claimed.kind !== "preview") await running;
  }
}
