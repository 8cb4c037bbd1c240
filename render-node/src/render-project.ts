// Renders a project directory to a video file on one node: plan, capture every frame (one chunk per browser),
// join with the audio. The farm's three steps (plan-render, render-segment, join-segments) in one session, so
// one browser load serves both the plan and the capture.
import { withCaptureSession } from "./capture/capture-session.ts";
import { checkConcurrency, type CaptureControls } from "./capture/capture-options.ts";
import type { CaptureMode } from "./browser/launch-capture-browser.ts";
import { joinFiles } from "./join-segments.ts";
import { mixAudioTrack } from "./media/mix-audio-track.ts";
import type { Format, Quality, Resolution } from "../../core/render/render-options.ts";
import type { RenderPlan } from "./plan-render.ts";
import { trackProgress } from "./progress/track-progress.ts";
import type { Progress } from "./progress/track-progress.ts";
import type { FrameDone } from "./capture/render-frame-range.ts";
import type { Finding } from "../../core/protocol/finding.ts";
import { formatTimeline, startTimeline, type TimelineStage } from "./progress/render-timeline.ts";

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
  /** Browsers (and chunk encoders) at once; default one per core. */
  concurrency?: number | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Every frame as it is handed to the encoder, and whether it was reused (tests and the bench read it). */
  onFrame?: ((frame: FrameDone) => void) | undefined;
}

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
}

/** Renders `composition` of `projectDir` into `outputPath`. Validates every option before any process starts. */
export async function renderProject(input: RenderProjectInput): Promise<RenderResult> {
  const { result } = await planThenRender({ ...input, decide: async () => "render" });
  return result!;
}

/**
 * The farm's first step and a whole render in one session: plans, asks `decide` (the Worker's answer to the plan),
 * and either renders the whole project here (`"render"`, as renderProject) or stops (`"stop"`: the Worker split
 * the render into segments) with nothing captured. One composition load serves both, so a render the Worker keeps
 * whole costs no more than renderProject alone.
 */
export async function planThenRender(
  input: RenderProjectInput & { decide: (plan: RenderPlan) => Promise<"render" | "stop"> },
): Promise<{ plan: RenderPlan; result: RenderResult | null }> {
  const began = performance.now();
  const options = {
    quality: input.quality, fps: input.fps, format: input.format, resolution: input.resolution, composition: input.composition,
    variables: input.variables, strictVariables: input.strictVariables,
    crf: input.crf, videoBitrate: input.videoBitrate, gifLoop: input.gifLoop,
  };
  const concurrency = checkConcurrency(input.concurrency);
  const timeline = input.timeline ?? startTimeline();
  // More browsers than one start while the first loads (most renders are long enough for all of them).
  return withCaptureSession({ ...input, options, timeline, prelaunch: concurrency - 1 }, async (session) => {
    const plan = session.plan();
    session.failIfBlocked();
    if ((await input.decide(plan)) === "stop") return { plan, result: null };
    session.signal.throwIfAborted();
    const frameDone = trackProgress(plan.frames, (p) => input.onProgress?.(p), session.onLine);
    let reusedFrames = 0;
    // The sound needs no frame: it is mixed while the browsers capture, so the join after the last frame is a copy.
    // A failure of either ends both (Promise.all rejects at once and the session's signal stops the other).
    const [chunks, audio] = await Promise.all([
      session.capture({ start: 0, end: plan.frames }, concurrency, (frame) => {
        if (frame.reused) reusedFrames++;
        input.onFrame?.(frame);
        frameDone(frame);
      }),
      plan.audio.length === 0 || session.options.format === "gif" ? null : timeline.time("mixing audio", mixAudioTrack({
        projectDir: session.projectDir, format: session.options.format, quality: session.options.quality, plan, work: session.work,
        strict: input.strict ?? false, tools: session.tools, onLine: session.onLine,
        onFinding: session.onFinding,
      })),
    ]);
    const { size } = await timeline.time("joining", () => joinFiles({
      format: session.options.format, quality: session.options.quality, gifLoop: session.options.gifLoop, plan, files: chunks, audio,
      outputPath: input.outputPath, work: session.work, tools: session.tools, onLine: session.onLine,
    }));
    const seconds = (performance.now() - began) / 1000;
    if (!input.timeline) session.onLine(`timeline: ${formatTimeline(timeline.stages())}`);
    session.onLine(`done: ${plan.frames} frames in ${seconds.toFixed(1)} s (${(plan.frames / seconds).toFixed(1)} frames/s overall), ${(size / 1e6).toFixed(2)} MB`);
    return {
      plan,
      result: {
        outputPath: input.outputPath, size, frames: plan.frames, fpsText: plan.fpsText, width: plan.width, height: plan.height,
        durationSeconds: plan.durationSeconds, captureMode: session.mode, reusedFrames, findings: session.findings, seconds,
        timeline: timeline.stages(),
      },
    };
  });
}
