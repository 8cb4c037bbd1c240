// A whole render in one capture session, read top to bottom: plan, (the Worker's decision,) capture with each
// browser's frames encoded into its chunk as they come, the sound mixed meanwhile, the join. renderProject runs it
// for a render on one node, runRenderJob for a render job (the download before it, the upload after). Each stage
// is handed the few values it reads; the session (capture-session.ts) holds the node's side only.
import { openCaptureSession } from "./capture/capture-session.ts";
import { captureFrames } from "./capture/capture-frames.ts";
import { checkConcurrency, type SessionInput } from "./capture/capture-options.ts";
import { planComposition, type RenderPlan } from "./plan-render.ts";
import { mixAudioTrack } from "./media/mix-audio-track.ts";
import { joinFiles } from "./join-segments.ts";
import type { ResolvedRender } from "./plan/resolve-render.ts";
import { trackProgress, type Progress } from "./progress/track-progress.ts";
import { formatTimeline, startTimeline } from "./progress/render-timeline.ts";
import type { FrameDone } from "./capture/render-frame-range.ts";
import type { ChunkDone } from "./capture/capture-chunks.ts";
import type { CaptureMode } from "./browser/launch-capture-browser.ts";
import type { Finding } from "../../core/protocol/finding.ts";
import type { TimelineStage } from "./progress/render-timeline.ts";
import { prepareCarry, type PreviousRender } from "./carry/prepare-carry.ts";
import type { RenderCarry } from "./carry/segment-carrier.ts";
import { CarryReplayMismatch } from "./carry/scout-segment.ts";

/** What a render made: the file, its figures, the findings and the timeline. */
export interface RenderResult {
  outputPath: string;
  size: number;
  frames: number;
  fpsText: string;
  width: number;
  height: number;
  durationSeconds: number;
  captureMode: CaptureMode;
  /** Frames not captured because the page proved them identical to the frame before (frame reuse). */
  reusedFrames: number;
  findings: Finding[];
  seconds: number;
  /** Each stage's start and end (seconds since the render began) and how busy the cores were (render-timeline.ts). */
  timeline: TimelineStage[];
  /**
   * Incremental re-render (carry/): the manifest this render leaves for the next one, and what it carried from the
   * previous render it was handed. Null for a format whose segments are not joined by copy (GIF, png-sequence).
   */
  carry: RenderCarry | null;
}

/** The node's side of the pipeline: the session's, and how the node watches the render. */
export interface PipelineNode extends SessionInput {
  /** Browsers (and chunk encoders) at once; default one per core. */
  concurrency?: number | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Every frame as it is handed to the encoder, and whether it was reused (tests and the bench read it). */
  onFrame?: ((frame: FrameDone) => void) | undefined;
  /**
   * Each fixed segment's file as soon as it is encoded (core/render/segment-plan.ts), before the join; what it returns is
   * awaited before the join (the file is removed with the session's scratch folder after the render).
   */
  onSegment?: ((segment: ChunkDone) => Promise<void> | void) | undefined;
  /**
   * The previous render of the same composition (its output and manifest): segments proven the same are carried. A
   * promise is awaited only once the Worker kept the render whole (a render job downloads it then: run-render-job.ts).
   */
  previous?: PreviousRender | Promise<PreviousRender | null> | null | undefined;
}

/** The Worker's answer to the plan: render the whole here, or stop (it split the render into segments). */
export type PlanDecision = (plan: RenderPlan) => Promise<"render" | "stop">;

export async function renderPipeline(
  node: PipelineNode,
  request: ResolvedRender,
  outputPath: string,
  decide: PlanDecision,
): Promise<{ plan: RenderPlan; result: RenderResult | null }> {
  let attempt = node;
  let decideOnce = decide;
  for (;;) {
    try {
      return await renderOnce(attempt, request, outputPath, decideOnce);
    } catch (error) {
      // A page that shows another picture when sought back (scout-segment.ts) cannot be carried from: the render
      // starts over once, from nothing, as a render without a previous one (the Worker has had the plan already).
      if (!(error instanceof CarryReplayMismatch) || !attempt.previous) throw error;
      node.onLine?.(error.message);
      attempt = { ...node, previous: null };
      decideOnce = async () => "render";
    }
  }
}

async function renderOnce(
  node: PipelineNode,
  request: ResolvedRender,
  outputPath: string,
  decide: PlanDecision,
): Promise<{ plan: RenderPlan; result: RenderResult | null }> {
  const began = performance.now();
  const concurrency = checkConcurrency(node.concurrency);
  const timeline = node.timeline ?? startTimeline();
  const session = await openCaptureSession({ ...node, timeline });
  try {
    // Plan: load the composition; more browsers start loading it meanwhile (most renders are worth them all).
    const planned = await planComposition(request, session, concurrency - 1);
    const plan = planned.plan;
    const options = planned.options;
    session.failIfBlocked(options.strict);
    if ((await decide(plan)) === "stop") return { plan, result: null };
    const previous = (await node.previous) ?? null;
    session.signal.throwIfAborted();
    const first = plan.firstFrame ?? 0;
    // Incremental re-render: the key and the carrier every browser asks before encoding a segment.
    const carry = await prepareCarry(session, {
      previous, options, viewport: planned.viewport, alpha: planned.alpha, first: planned.first, firstFrame: first, frames: plan.frames,
    });
    const frameDone = trackProgress(plan.frames, (p) => node.onProgress?.(p), session.onLine);
    let reusedFrames = 0;
    // Capture and encode, with the mix alongside: the sound needs no frame, so the join after the last frame is a
    // copy. A failure of either ends both (Promise.all rejects at once and the session's signal stops the other).
    const [chunks, audio] = await Promise.all([
      captureFrames(session, {
        // A range render (from/to) captures its frames on the composition's clock, the full render's same frames.
        range: { start: first, end: first + plan.frames }, frames: planned.compositionFrames, outputStart: first, options, viewport: planned.viewport, alpha: planned.alpha,
        transitions: planned.transitions, page: planned.page, first: planned.first, concurrency, carry,
        onFrame: (frame) => {
          if (frame.reused) reusedFrames++;
          node.onFrame?.(frame);
          frameDone(frame);
        },
        onSegmentDone: node.onSegment,
      }),
      plan.audio.length === 0 || options.format === "gif" ? null : timeline.time("mixing audio", mixAudioTrack({
        projectDir: session.projectDir, format: options.format, quality: options.quality, plan, work: session.work,
        strict: options.strict, tools: session.tools, onLine: session.onLine, onFinding: session.onFinding,
      })),
    ]);
    const carried = carry?.carrier.finish() ?? null;
    // Join: the chunks in order with the sound, copied.
    const { size } = await timeline.time("joining", () => joinFiles({
      format: options.format, quality: options.quality, gifLoop: options.gifLoop, plan, files: chunks, audio,
      outputPath, work: session.work, tools: session.tools, onLine: session.onLine,
    }));
    const seconds = (performance.now() - began) / 1000;
    if (!node.timeline) session.onLine(`timeline: ${formatTimeline(timeline.stages())}`);
    session.onLine(`done: ${plan.frames} frames in ${seconds.toFixed(1)} s (${(plan.frames / seconds).toFixed(1)} frames/s overall), ${(size / 1e6).toFixed(2)} MB`);
    return {
      plan,
      result: {
        outputPath, size, frames: plan.frames, fpsText: plan.fpsText, width: plan.width, height: plan.height,
        durationSeconds: plan.durationSeconds, captureMode: planned.first.browser.mode, reusedFrames, findings: session.findings, seconds,
        timeline: timeline.stages(),
        carry: carried,
      },
    };
  } catch (error) {
    throw session.fail(error);
  } finally {
    await session.close();
  }
}
