// Runs one claimed render job: download the project, load the composition and post its plan (frames, rate, size,
// audio). A render the Worker keeps whole is captured in that same session from start to end with its audio
// (planThenRender: one composition load, so a short render costs what it did before the farm), uploaded and
// completed. A render the Worker splits ends here, its segments queued for any nodes.
import { join } from "node:path";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import { FORMAT_CONTENT_TYPES } from "../../../core/render/render-options.ts";
import { resolveRender } from "../plan/resolve-render.ts";
import { planThenRender } from "../render-project.ts";
import { formatTimeline, startTimeline } from "../progress/render-timeline.ts";
import { runFarmJob, type FarmJobSettings } from "./run-farm-job.ts";

export function runRenderJob(client: NodeClient, job: Job, settings: FarmJobSettings): Promise<{ ok: boolean; error?: string }> {
  return runFarmJob(client, job, settings, async ({ work, signal, onLine, progress, stage }) => {
    const options = resolveRender({ ...job.options, composition: job.composition ?? job.options.composition });
    onLine(`job ${job.id}: render ${job.slug}/${options.composition} as ${options.format}`);
    const projectDir = join(work, "project");
    // The render's stages and the upload, as one `timeline:` line at the end (how long each took, cores busy).
    const timeline = startTimeline();
    const files = await timeline.time("downloading", () => client.downloadFiles(job.id, projectDir, signal));
    onLine(`downloaded ${files.length} project file${files.length === 1 ? "" : "s"}`);
    const output = join(work, `${job.slug || "render"}.${options.format}`);
    const { result } = await planThenRender({
      projectDir,
      outputPath: output,
      composition: options.composition,
      quality: options.quality,
      // No fps in the request: the root's data-fps decides, else 30.
      fps: options.fpsGiven ? options.fpsText : undefined,
      format: options.format,
      resolution: options.resolution,
      strict: options.strict,
      variables: options.variables,
      strictVariables: options.strictVariables,
      concurrency: settings.concurrency,
      binaries: settings.binaries,
      // The node's stage bounds, scratch budget and frame reuse, as configured (each a default when absent).
      ...settings.limits,
      signal,
      onLine,
      timeline,
      onProgress: (p) => progress(p.frame, p.total, p.fps, p.etaSeconds, p.frame < p.total ? "capturing" : "encoding", p.reused),
      decide: async (plan) => {
        const { segments, cancelled } = await client.postPlan(job.id, plan);
        if (cancelled) throw new Error("render cancelled");
        if (segments.length === 1) return "render";
        onLine(`planned ${plan.frames} frames; the Worker split the render into ${segments.length} segments`);
        return "stop";
      },
    });
    if (!result) return "ended";
    signal.throwIfAborted();
    stage("uploading");
    onLine("uploading output");
    const { size } = await timeline.time("uploading", () => client.uploadOutput(job.id, output, FORMAT_CONTENT_TYPES[options.format]));
    onLine(`uploaded ${size} bytes`);
    onLine(`timeline: ${formatTimeline(timeline.stages())}`);
    return "completed";
  });
}
