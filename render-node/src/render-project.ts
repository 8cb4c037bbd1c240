// Renders a project directory to a video file on one node: the render pipeline (render-pipeline.ts: plan,
// capture and encode, mix, join) with the options of a caller that is not a job. One browser load serves both the
// plan and the capture.
import { resolveRequest, type CaptureControls } from "./capture/capture-options.ts";
import type { Format, Quality, Resolution } from "../../core/render/render-options.ts";
import type { RenderPlan } from "./plan-render.ts";
import type { Progress } from "./progress/track-progress.ts";
import type { FrameDone } from "./capture/render-frame-range.ts";
import type { ChunkDone } from "./capture/capture-chunks.ts";
import type { PreviousRender } from "./carry/prepare-carry.ts";
import { renderPipeline, type PlanDecision, type RenderResult } from "./render-pipeline.ts";

export interface RenderProjectInput extends CaptureControls {
  projectDir: string;
  /** Where the video goes; its extension is not checked, the format decides the container. */
  outputPath: string;
  /** Project-relative entry composition; default index.html. */
  composition?: string | undefined;
  quality?: Quality | undefined;
  fps?: number | string | undefined;
  format?: Format | undefined;
  resolution?: Resolution | undefined;
  /** Render-time variables over the root's declared defaults (core/render/render-variables.ts). */
  variables?: Record<string, unknown> | undefined;
  /** Fail on an undeclared or mistyped variables key instead of warning. */
  strictVariables?: boolean | undefined;
  /** The request's crf or target bitrate (mp4, webm) and a GIF's loop count. */
  crf?: number | undefined;
  videoBitrate?: string | undefined;
  gifLoop?: number | undefined;
  /** Only frames [from, to) of the full render (core/render/render-range.ts): seconds, or "<frame>f". */
  from?: number | string | undefined;
  to?: number | string | undefined;
  /** Browsers (and chunk encoders) at once; default one per core. */
  concurrency?: number | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Every frame as it is handed to the encoder, and whether it was reused (tests and the bench read it). */
  onFrame?: ((frame: FrameDone) => void) | undefined;
  /** Each fixed segment's file as soon as it is encoded, before the join (render-pipeline.ts PipelineNode.onSegment). */
  onSegment?: ((segment: ChunkDone) => Promise<void> | void) | undefined;
  /** The previous render of the same composition, to carry unchanged segments from (render-pipeline.ts). */
  previous?: PreviousRender | null | undefined;
}

/** What a render made: the pipeline's result (render-pipeline.ts). */
export type { RenderResult } from "./render-pipeline.ts";

/** Renders `composition` of `projectDir` into `outputPath`. Validates every option before any process starts. */
export async function renderProject(input: RenderProjectInput): Promise<RenderResult> {
  const { result } = await planThenRender({ ...input, decide: async () => "render" });
  return result!;
}

/**
 * The farm's first step and a whole render in one session (render-pipeline.ts): plans, asks `decide` (the
 * Worker's answer to the plan), and either renders the whole project here (`"render"`, as renderProject) or stops
 * (`"stop"`: the Worker split the render into segments) with nothing captured.
 */
export async function planThenRender(
  input: RenderProjectInput & { decide: PlanDecision },
): Promise<{ plan: RenderPlan; result: RenderResult | null }> {
  const request = resolveRequest({
    quality: input.quality, fps: input.fps, format: input.format, resolution: input.resolution, composition: input.composition,
    variables: input.variables, strictVariables: input.strictVariables,
    crf: input.crf, videoBitrate: input.videoBitrate, gifLoop: input.gifLoop, from: input.from, to: input.to,
  }, input.strict);
  return renderPipeline(input, request, input.outputPath, input.decide);
}
