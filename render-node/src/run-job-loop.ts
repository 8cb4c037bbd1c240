// The node's main loop: claim a render job, run it, repeat; back off while the Worker is unreachable.
import type { NodeClient } from "./node-protocol-client.ts";
import { runRenderJob } from "./run-render-job.ts";
import type { Binaries } from "./resolve-binaries.ts";

const MAX_BACKOFF_MS = 30_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); done(); }, { once: true });
  });
}

/** Claims and runs jobs one at a time until `signal` aborts. */
export async function runJobLoop(options: {
  client: NodeClient;
  nodeId: string;
  concurrency?: number | undefined;
  binaries?: Binaries | undefined;
  signal: AbortSignal;
  log: (line: string) => void;
}): Promise<void> {
  let backoff = 1000;
  while (!options.signal.aborted) {
    let job;
    try {
      job = await options.client.claim(options.nodeId, options.signal);
      backoff = 1000;
    } catch (error) {
      if (options.signal.aborted) break;
      options.log(`claim failed (${error instanceof Error ? error.message : String(error)}); retrying in ${backoff / 1000} s`);
      await sleep(backoff, options.signal);
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
      continue;
    }
    if (!job) continue;
    try {
      const result = await runRenderJob(options.client, job, { concurrency: options.concurrency, binaries: options.binaries, log: options.log });
      options.log(`job ${job.id} ${result.ok ? "done" : `failed: ${result.error}`}`);
    } catch (error) {
      options.log(`job ${job.id}: could not report to the Worker: ${error instanceof Error ? error.message : String(error)}`);
      await sleep(backoff, options.signal);
    }
  }
}
