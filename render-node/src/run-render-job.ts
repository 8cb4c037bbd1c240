// Runs one claimed render job: download the project, load the composition and post its plan (frames, rate, size,
// audio). A render the Worker keeps whole is captured in that same session from start to end and joined with its
// audio (as renderProject does), uploaded and completed: one composition load, so a short render costs what it
// did before the farm. A render the Worker splits ends here, its segments queued for any nodes.
import { join } from "node:path";
import { checkConcurrency, withCaptureSession } from "./capture-session.ts";
import { joinFiles } from "./join-segments.ts";
import type { Job, NodeClient } from "./node-protocol-client.ts";
import { FORMAT_CONTENT_TYPES, parseRenderOptions } from "./parse-render-options.ts";
import { runFarmJob, type FarmJobSettings } from "./run-farm-job.ts";
import { trackProgress } from "./track-progress.ts";

export function runRenderJob(client: NodeClient, job: Job, settings: FarmJobSettings): Promise<{ ok: boolean; error?: string }> {
  return runFarmJob(client, job, settings, async ({ work, signal, onLine, progress, stage }) => {
    const options = parseRenderOptions({ ...job.options, composition: job.composition ?? job.options.composition });
    onLine(`job ${job.id}: render ${job.slug}/${options.composition} as ${options.format}`);
    const projectDir = join(work, "project");
    const files = await client.downloadFiles(job.id, projectDir, signal);
    onLine(`downloaded ${files.length} project file${files.length === 1 ? "" : "s"}`);
    const output = join(work, `${job.slug || "render"}.${options.format}`);
    const concurrency = checkConcurrency(settings.concurrency);
    const split = await withCaptureSession(
      { projectDir, options: job.options, strict: options.strict, binaries: settings.binaries, signal, onLine },
      async (session) => {
        const plan = session.plan();
        const { segments, cancelled } = await client.postPlan(job.id, plan);
        if (cancelled) throw new Error("render cancelled");
        if (segments.length > 1) {
          onLine(`planned ${plan.frames} frames; the Worker split the render into ${segments.length} segments`);
          return true;
        }
        const frameDone = trackProgress(
          plan.frames,
          (p) => progress(p.frame, p.total, p.fps, p.etaSeconds, p.frame < p.total ? "capturing" : "encoding"),
          session.onLine,
        );
        const chunks = await session.capture({ start: 0, end: plan.frames }, concurrency, frameDone);
        await joinFiles({
          projectDir: session.projectDir, format: session.options.format, quality: session.options.quality, plan, files: chunks,
          outputPath: output, work: session.work, strict: options.strict, binaries: session.binaries,
          bounds: session.bounds, signal: session.signal, onLine: session.onLine,
        });
        return false;
      },
    );
    if (split) return "ended";
    signal.throwIfAborted();
    stage("uploading");
    onLine("uploading output");
    const { size } = await client.uploadOutput(job.id, output, FORMAT_CONTENT_TYPES[options.format]);
    onLine(`uploaded ${size} bytes`);
    return "completed";
  });
}
