// Runs one claimed render job: download the project, render with progress posts every second, upload, complete.
import { join } from "node:path";
import type { ProgressEvent, ProgressStage } from "../../core/protocol/progress.ts";
import type { Job, NodeClient } from "./node-protocol-client.ts";
import { FORMAT_CONTENT_TYPES, parseRenderOptions } from "./parse-render-options.ts";
import { renderProject } from "./render-project.ts";
import type { Binaries } from "./resolve-binaries.ts";
import { makeScratchDir, removeScratchDir } from "./scratch-dirs.ts";

// Twice a second, so a cancel (the answer to a post) reaches the node in under a second.
const PROGRESS_INTERVAL_MS = 500;

/** Renders `job` and reports the outcome to the Worker; never throws for a render failure (it completes ok:false). */
export async function runRenderJob(
  client: NodeClient,
  job: Job,
  settings: {
    concurrency?: number | undefined;
    binaries?: Binaries | undefined;
    log?: (line: string) => void;
    /** The node is stopping: abort the render (killing its browsers and ffmpeg) and report why. */
    shutdown?: AbortSignal | undefined;
  },
): Promise<{ ok: boolean; error?: string }> {
  const work = await makeScratchDir("render-job");
  const controller = new AbortController();
  // On shutdown the render is aborted (its browsers and ffmpegs are killed) and reported with the reason, so the
  // Worker hears why at once rather than when the lease lapses.
  const onShutdown = () => controller.abort(new Error("render node shutting down"));
  if (settings.shutdown?.aborted) onShutdown();
  settings.shutdown?.addEventListener("abort", onShutdown, { once: true });
  let pending: string[] = [];
  const onLine = (line: string) => {
    pending.push(line);
    settings.log?.(`[${job.id}] ${line}`);
  };
  // Progress travels as numbers beside the log; the latest event is sent with the next post (at most one a post).
  let progress: ProgressEvent | undefined;
  let progressSent: ProgressEvent | undefined;
  const setStage = (stage: ProgressStage) => {
    if (progress) progress = { ...progress, stage };
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
        if (cancelled && !controller.signal.aborted) controller.abort(new Error("render cancelled"));
      } catch (error) {
        pending = [...lines, ...pending];
        settings.log?.(`[${job.id}] progress post failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return posting;
  };
  const timer = setInterval(() => void flush(), PROGRESS_INTERVAL_MS);
  let result: { ok: true } | { ok: false; error: string };
  try {
    const options = parseRenderOptions({ ...job.options, composition: job.composition ?? job.options.composition });
    onLine(`job ${job.id}: render ${job.slug}/${options.composition} as ${options.format}`);
    const projectDir = join(work, "project");
    const files = await client.downloadFiles(job.id, projectDir, controller.signal);
    onLine(`downloaded ${files.length} project file${files.length === 1 ? "" : "s"}`);
    const output = join(work, `${job.slug || "render"}.${options.format}`);
    await renderProject({
      projectDir,
      outputPath: output,
      composition: options.composition,
      quality: options.quality,
      // No fps in the request: the root's data-fps decides (renderProject reads it), else 30.
      fps: options.fpsGiven ? options.fpsText : undefined,
      format: options.format,
      resolution: options.resolution,
      strict: options.strict,
      concurrency: settings.concurrency,
      binaries: settings.binaries,
      signal: controller.signal,
      onLine,
      onProgress: (p) => {
        progress = { frame: p.frame, total: p.total, fps: p.fps, etaSeconds: p.etaSeconds, stage: p.frame < p.total ? "capturing" : "encoding" };
      },
    });
    controller.signal.throwIfAborted();
    setStage("uploading");
    onLine("uploading output");
    const { size } = await client.uploadOutput(job.id, output, FORMAT_CONTENT_TYPES[options.format]);
    onLine(`uploaded ${size} bytes`);
    result = { ok: true };
  } catch (error) {
    const reason: unknown = controller.signal.reason;
    const message = controller.signal.aborted
      ? reason instanceof Error ? reason.message : "render cancelled"
      : error instanceof Error ? error.message : String(error);
    result = { ok: false, error: message };
  } finally {
    clearInterval(timer);
    settings.shutdown?.removeEventListener("abort", onShutdown);
  }
  try {
    await flush();
    await client.complete(job.id, result);
  } finally {
    await removeScratchDir(work);
  }
  return result;
}
