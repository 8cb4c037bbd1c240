// A preview job: the node holds it for as long as the preview runs. It downloads the project, serves it on its
// own port under the job's secret, reports the port, then every second renews the lease (progress) and compares
// the project's file list; changed files are fetched and open pages reload. A `{ cancelled: true }` answer
// (DELETE) stops it, and so does idleness: no request under the secret for `idleMs` (PREVIEW_IDLE_MS) ends the
// job as done, so the Worker shows running: false.
import { rm } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { createJobReporter } from "./create-job-reporter.ts";
import { diffFileListings } from "../browser-jobs/diff-file-listings.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import { makeScratchDir, removeScratchDir } from "../system/scratch-dirs.ts";
import { servePreview } from "../browser-jobs/serve-preview.ts";
import { seconds } from "../bounds/deadline.ts";

const POLL_MS = 1000;
export const PREVIEW_IDLE_MS = 10 * 60_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); done(); }, { once: true });
  });
}

/** The secret the Worker put in the job's options; a preview without one would be open to anyone, so it fails. */
function secretOf(job: Job): string {
  const secret = job.options.secret;
  if (typeof secret !== "string" || !/^[A-Za-z0-9_-]{16,}$/.test(secret)) throw new Error("the preview job carries no secret");
  return secret;
}

export async function runPreviewJob(
  client: NodeClient,
  job: Job,
  settings: { host?: string | undefined; firstPort?: number | undefined; idleMs?: number | undefined; log?: (line: string) => void },
): Promise<{ ok: boolean; error?: string }> {
  const dir = await makeScratchDir("preview");
  const projectDir = join(dir, "project");
  const reporter = createJobReporter(client, job.id, settings.log);
  const { signal } = reporter;
  const idleMs = settings.idleMs ?? PREVIEW_IDLE_MS;
  let outcome: { ok: true } | { ok: false; error: string } = { ok: true };
  try {
    const secret = secretOf(job);
    reporter.stage("downloading the project files");
    let listing = await client.listFiles(job.id, signal);
    await client.downloadFiles(job.id, projectDir, signal, listing);
    reporter.stage("starting the preview server");
    const server = await servePreview({ projectDir, secret, host: settings.host, firstPort: settings.firstPort });
    try {
      const { cancelled } = await client.reportPreviewPort(job.id, server.port);
      reporter.stage(`serving ${job.slug} on port ${server.port}`);
      while (!cancelled && !signal.aborted) {
        await sleep(POLL_MS, signal);
        if (signal.aborted) break;
        if (server.idleMs() >= idleMs) {
          reporter.line(`preview idle: no request in ${seconds(idleMs)}`);
          break;
        }
        const next = await client.listFiles(job.id, signal).catch((error: unknown) => {
          // The Worker out of reach for a moment: the preview keeps serving what it has and asks again next poll.
          if (!signal.aborted) settings.log?.(`[${job.id}] could not list the preview's files (${error instanceof Error ? error.message : String(error)}); asking again`);
          return null;
        });
        if (!next) continue;
        const { changed, removed } = diffFileListings(listing, next);
        listing = next;
        if (changed.length === 0 && removed.length === 0) continue;
        await client.downloadFiles(job.id, projectDir, signal, changed);
        const root = resolve(projectDir);
        for (const path of removed) {
          const target = resolve(root, path);
          if (target.startsWith(root + sep)) await rm(target, { force: true });
        }
        server.reload();
        reporter.line(`reloaded: ${[...changed.map((f) => f.path), ...removed].join(", ")} changed`);
      }
    } finally {
      await server.close();
    }
    reporter.line("preview stopped");
  } catch (error) {
    if (!signal.aborted) outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  try {
    await reporter.stop();
    await client.complete(job.id, outcome).catch((error: unknown) => {
      // A preview that cannot report its end is ended by the Worker's lease; the node goes on with its next job.
      settings.log?.(`[${job.id}] could not report the preview's end: ${error instanceof Error ? error.message : String(error)}`);
    });
  } finally {
    await removeScratchDir(dir);
  }
  return outcome;
}
