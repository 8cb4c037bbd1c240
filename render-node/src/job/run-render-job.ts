// Runs one claimed render job, top to bottom: the options, the download, the render pipeline (render-pipeline.ts:
// plan, post the plan, capture and encode, mix, join: one composition load, so a short render costs what it did
// before the farm), the upload. A render the Worker splits ends after its plan, its segments queued for any nodes.
import { join } from "node:path";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import { resolveRender } from "../plan/resolve-render.ts";
import { renderPipeline, type PlanDecision } from "../render-pipeline.ts";
import type { ChunkDone } from "../capture/capture-chunks.ts";
import { formatTimeline, startTimeline } from "../progress/render-timeline.ts";
import { runFarmJob, type FarmJobSettings } from "./run-farm-job.ts";
import { uploadFinishedRender } from "./upload-finished-render.ts";
import { previousAfterPlan } from "./fetch-previous-render.ts";
import { resolveBinaries } from "../system/resolve-binaries.ts";
import { stageTools } from "../system/stage-tools.ts";
import { DEFAULT_STAGE_BOUNDS } from "../bounds/stage-bounds.ts";
import { liveUploader } from "./upload-live-pieces.ts";
import { isLiveFormat } from "../../../core/render/segment-plan.ts";

export function runRenderJob(client: NodeClient, job: Job, settings: FarmJobSettings): Promise<{ ok: boolean; error?: string }> {
  return runFarmJob(client, job, settings, async ({ work, signal, onLine, progress, stage }) => {
    const options = resolveRender({ ...job.options, composition: job.composition ?? job.options.composition });
    onLine(`job ${job.id}: render ${job.slug}/${options.composition} as ${options.format}`);
    const projectDir = join(work, "project");
    // The render's stages and the upload, as one `timeline:` line at the end (how long each took, cores busy).
    const timeline = startTimeline();
    const files = await timeline.time("downloading", () => client.downloadFiles(job.id, projectDir, signal));
    // The previous render the Worker handed the job (incremental re-render) comes down once the Worker keeps the
    // render whole here: a split render's segments carry nothing from it.
    const previousRender = previousAfterPlan(client, job, join(work, `previous.${options.format}`), signal, onLine, timeline);
    onLine(`downloaded ${files.length} project file${files.length === 1 ? "" : "s"}`);
    const output = join(work, `${job.slug || "render"}.${options.format}`);
    const toolsOf = async () => stageTools(settings.binaries ?? (await resolveBinaries()), settings.limits?.bounds ?? DEFAULT_STAGE_BOUNDS, signal);
    // Watched while it runs: each finished segment goes up as a live piece (mp4 and webm kept whole on this node).
    const live = isLiveFormat(options.format) ? liveUploader({ client, jobId: job.id, tools: toolsOf, work, onLine }) : null;
    const decide: PlanDecision = async (plan) => {
      const { segments, cancelled } = await client.postPlan(job.id, plan);
      if (cancelled) throw new Error("render cancelled");
      live?.planned(plan);
      if (segments.length === 1) {
        previousRender.kept();
        return "render";
      }
      previousRender.split();
      onLine(`planned ${plan.frames} frames; the Worker split the render into ${segments.length} segments`);
      return "stop";
    };
    // The node's side: its binaries, browsers at once, stage bounds, scratch budget and frame reuse as configured
    // (each a default when absent), the job's signal, log and progress; the render's side is `options`, whole.
    const node = {
      projectDir, concurrency: settings.concurrency, binaries: settings.binaries, ...settings.limits, signal, onLine, timeline, previous: previousRender.previous,
      onSegment: live ? (segment: ChunkDone) => live.onSegment(segment) : undefined,
      onProgress: (p: { frame: number; total: number; fps: number; etaSeconds: number; reused: number }) =>
        progress(p.frame, p.total, p.fps, p.etaSeconds, p.frame < p.total ? "capturing" : "encoding", p.reused),
    };
    const { plan, result } = await renderPipeline(node, options, output, decide);
    if (!result) return "ended";
    signal.throwIfAborted();
    stage("uploading");
    // The output, then its manifest and poster (made meanwhile), with the last live pieces still going up: all of
    // them are there before the render is complete.
    const { posterError } = await uploadFinishedRender(client, job, await toolsOf(), {
      output, format: options.format, plan, work,
      manifest: result.carry?.manifest, pending: live?.settled(),
    }, onLine, timeline.time);
    onLine(`timeline: ${formatTimeline(timeline.stages())}`);
    // What it carried, from the render the Worker named (absent when it was handed none or could not get it).
    const previous = await previousRender.previous;
    const carried = previous && job.carryFrom && result.carry
      ? { from: job.carryFrom, segments: result.carry.carriedSegments, frames: result.carry.carriedFrames, of: result.carry.segments }
      : undefined;
    return { ...(posterError === undefined ? {} : { posterError }), ...(carried ? { carried } : {}) };
  });
}
