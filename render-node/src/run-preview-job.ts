// A preview job: the node holds it for as long as the preview runs. It downloads the project, serves it on its
// own port, reports the port, then every second renews the lease (progress) and compares the project's file list;
// changed files are fetched and open pages reload. A `{ cancelled: true }` answer (DELETE) stops it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { createJobReporter } from "./create-job-reporter.ts";
import { diffFileListings } from "./diff-file-listings.ts";
import type { Job, NodeClient } from "./node-protocol-client.ts";
import { servePreview } from "./serve-preview.ts";

const POLL_MS = 1000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); done(); }, { once: true });
  });
}

export async function runPreviewJob(
  client: NodeClient,
  job: Job,
  settings: { host?: string | undefined; firstPort?: number | undefined; log?: (line: string) => void },
): Promise<{ ok: boolean; error?: string }> {
  const dir = await mkdtemp(join(tmpdir(), "studio-preview-"));
  const projectDir = join(dir, "project");
  const reporter = createJobReporter(client, job.id, settings.log);
  const { signal } = reporter;
  let outcome: { ok: true } | { ok: false; error: string } = { ok: true };
  try {
    reporter.stage("downloading the project files");
    let listing = await client.listFiles(job.id, signal);
    await client.downloadFiles(job.id, projectDir, signal, listing);
    reporter.stage("starting the preview server");
    const server = await servePreview({ projectDir, host: settings.host, firstPort: settings.firstPort });
    try {
      const { cancelled } = await client.reportPreviewPort(job.id, server.port);
      reporter.stage(`serving ${job.slug} on port ${server.port}`);
      while (!cancelled && !signal.aborted) {
        await sleep(POLL_MS, signal);
        if (signal.aborted) break;
        const next = await client.listFiles(job.id, signal).catch(() => null);
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
  await reporter.stop();
  await client.complete(job.id, outcome).catch(() => {});
  await rm(dir, { recursive: true, force: true });
  return outcome;
}
