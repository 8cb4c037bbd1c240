// The frame of a snapshot or check job: progress reporting, the project downloaded into a scratch folder, the
// work itself, then complete with its result (or the error) and clean up. Never throws for a job failure. When the
// node stops meanwhile (SIGTERM: a container stopped, a deploy), the work is aborted and the job given back, not
// failed (run-farm-job.ts giveBackJob): another node takes it and the request waiting for it still gets its answer.
import { join } from "node:path";
import { createJobReporter, type JobReporter } from "./create-job-reporter.ts";
import { giveBackJob } from "./run-farm-job.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import { makeScratchDir, removeScratchDir } from "../system/scratch-dirs.ts";

export interface BrowserJobSettings {
  log?: ((line: string) => void) | undefined;
  /** The node is stopping: abort the work and give the job back. */
  shutdown?: AbortSignal | undefined;
}

export interface BrowserJobContext {
  reporter: JobReporter;
  projectDir: string;
  /** Aborts on a cancel (the Worker's answer to a progress post) or when the node stops. */
  signal: AbortSignal;
}

export async function runBrowserJob(
  client: NodeClient,
  job: Job,
  settings: BrowserJobSettings,
  work: (context: BrowserJobContext) => Promise<unknown>,
  failureResult?: (reporter: JobReporter) => unknown,
): Promise<{ ok: boolean; error?: string }> {
  const dir = await makeScratchDir(job.kind);
  const reporter = createJobReporter(client, job.id, settings.log);
  const stopping = new AbortController();
  const giveBack: { promise: Promise<boolean> | null } = { promise: null };
  const onShutdown = () => {
    if (reporter.signal.aborted || stopping.signal.aborted) return;
    stopping.abort(new Error("render node shutting down"));
    giveBack.promise = giveBackJob(client, job, settings.log);
  };
  if (settings.shutdown?.aborted) onShutdown();
  settings.shutdown?.addEventListener("abort", onShutdown, { once: true });
  const signal = AbortSignal.any([reporter.signal, stopping.signal]);
  let outcome: ({ ok: true } | { ok: false; error: string }) & { result?: unknown };
  try {
    signal.throwIfAborted();
    reporter.stage("downloading the project files");
    const projectDir = join(dir, "project");
    const files = await client.downloadFiles(job.id, projectDir, signal);
    reporter.line(`downloaded ${files.length} project file${files.length === 1 ? "" : "s"}`);
    const result = await work({ reporter, projectDir, signal });
    signal.throwIfAborted();
    outcome = { ok: true, result };
  } catch (error) {
    const message = reporter.signal.aborted ? `${job.kind} cancelled` : error instanceof Error ? error.message : String(error);
    if (!giveBack.promise) reporter.line(`${job.kind} failed: ${message}`);
    outcome = { ok: false, error: message, result: failureResult?.(reporter) };
  } finally {
    settings.shutdown?.removeEventListener("abort", onShutdown);
  }
  try {
    if (giveBack.promise) {
      await reporter.stop();
      await giveBack.promise;
      return { ok: false, error: "render node shutting down: the job was given back" };
    }
    await reporter.stop();
    await client.complete(job.id, outcome);
  } finally {
    await removeScratchDir(dir);
  }
  return outcome.ok ? { ok: true } : { ok: false, error: outcome.error };
}
