// The frame of a snapshot or check job: progress reporting, the project downloaded into a scratch folder, the
// work itself, then complete with its result (or the error) and clean up. Never throws for a job failure.
import { join } from "node:path";
import { createJobReporter, type JobReporter } from "./create-job-reporter.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import { makeScratchDir, removeScratchDir } from "../system/scratch-dirs.ts";

export async function runBrowserJob(
  client: NodeClient,
  job: Job,
  log: ((line: string) => void) | undefined,
  work: (context: { reporter: JobReporter; projectDir: string }) => Promise<unknown>,
  failureResult?: (reporter: JobReporter) => unknown,
): Promise<{ ok: boolean; error?: string }> {
  const dir = await makeScratchDir(job.kind);
  const reporter = createJobReporter(client, job.id, log);
  let outcome: ({ ok: true } | { ok: false; error: string }) & { result?: unknown };
  try {
    reporter.stage("downloading the project files");
    const projectDir = join(dir, "project");
    const files = await client.downloadFiles(job.id, projectDir, reporter.signal);
    reporter.line(`downloaded ${files.length} project file${files.length === 1 ? "" : "s"}`);
    const result = await work({ reporter, projectDir });
    outcome = { ok: true, result };
  } catch (error) {
    const message = reporter.signal.aborted ? `${job.kind} cancelled` : error instanceof Error ? error.message : String(error);
    reporter.line(`${job.kind} failed: ${message}`);
    outcome = { ok: false, error: message, result: failureResult?.(reporter) };
  }
  try {
    await reporter.stop();
    await client.complete(job.id, outcome);
  } finally {
    await removeScratchDir(dir);
  }
  return outcome.ok ? { ok: true } : { ok: false, error: outcome.error };
}
