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
import { retry } from "../../../core/retry.ts";
import type { JobsInHand } from "./jobs-in-hand.ts";

const MAX_BACKOFF_MS = 30_000;

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
  // A snapshot or check is given back when the node stops, as render work is (giveBackJob in run-farm-job.ts).
  if (job.kind === "snapshot") return runSnapshotJob(client, job, { binaries, bounds: options.limits?.bounds, log, shutdown: options.signal });
  if (job.kind === "check") return runCheckJob(client, job, { binaries, bounds: options.limits?.bounds, log, shutdown: options.signal });
  return runPreviewJob(client, job, { host: options.previewHost, firstPort: options.previewFirstPort, idleMs: options.previewIdleMs, log });
}

/** Claims and runs jobs one at a time (previews in the background) until `signal` aborts. */
export async function runJobLoop(options: JobLoopOptions): Promise<void> {
  // A loop that renders also takes the segments and joins of split renders.
  const given = options.kinds ?? ["render"];
  const kinds: readonly JobKind[] = given.includes("render") ? [...new Set<JobKind>([...given, "segment", "join"])] : given;
  while (!options.signal.aborted) {
    // While the Worker is unreachable: 1 s, 2 s, 4 s ... at most 30 s between claims, from 1 s again after one answers.
    const claim = await retry(() => options.client.claim(options.nodeId, options.signal, kinds), {
      attempts: Number.POSITIVE_INFINITY,
      backoff: { firstMs: 1000, maxMs: MAX_BACKOFF_MS },
      signal: options.signal,
      onRetry: (error, _retry, delayMs) => options.log(`claim failed (${error instanceof Error ? error.message : String(error)}); retrying in ${delayMs / 1000} s`),
    });
    if (!claim.ok) break; // only the node stopping ends the retries
    // No job: the wait ended empty, or work came while this claim waited and must be claimed again now (a claim
    // that waited never takes a job, core/protocol/node-routes.ts ClaimAgainSchema). Both: claim again at once.
    if (!claim.value) continue;
    const claimed = claim.value;
    const run = runOne(options, claimed);
    const running = (options.inHand ? options.inHand.hold(run) : run).then(
      (result) => options.log(`job ${claimed.id} (${claimed.kind}) ${result.ok ? "done" : `failed: ${result.error}`}`),
      (error: unknown) => options.log(`job ${claimed.id}: could not report to the Worker: ${error instanceof Error ? error.message : String(error)}`),
    );
    if (claimed.kind !== "preview") await running;
  }
}
