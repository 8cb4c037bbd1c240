// The render settled against the loaded page, in one step after it loads: the frame rate (the request's, else the
// root's data-fps), the frame count, the studio's limits checked again on what the page reports of itself (a
// script may change the root, a timeline may set the length) with the frames the render settled on, and the
// viewport that captures a composition of one size for an output of another. Pure.
import { GIF_DEFAULTS, MAX_PNG_SEQUENCE_FRAMES, RESOLUTIONS } from "../../../core/render/render-options.ts";
import type { Format, Resolution } from "../../../core/render/render-options.ts";
import { describeLimitProblems, findLimitProblems } from "../../../core/composition/size-limits.ts";
import type { CompositionInfo } from "../../../page-runtime/api.ts";
import { makeFinding, type Finding } from "../../../core/protocol/finding.ts";
import { resolveRender, type Fps, type ResolvedRender } from "./resolve-render.ts";
import { reportedSize } from "./refuse-oversized-composition.ts";
import { settleRange } from "../../../core/render/render-range.ts";
import { RenderOptionError } from "./resolve-render.ts";

/** What the loaded page settled: the options to render with, the frames and the viewport. */
export interface SettledRender {
  /** The request's options with the frame rate settled (the request's fps, else the root's data-fps, else 30). */
  options: ResolvedRender;
  /** The output's frames: the composition's, or the range's (from/to). */
  frames: number;
  /** The composition frame the output's first frame is (from; 0 without a range). */
  firstFrame: number;
  /** The composition's own frames at the settled rate (the page's clock). */
  compositionFrames: number;
  viewport: Viewport;
}

/**
 * Settles `request` against what the loaded page reported (`info`); a root data-fps that is not a frame rate is a
 * finding (`onFinding`). Throws when the page has no duration, when it is over the studio's limits at the settled
 * rate (naming every attribute over its maximum), when a png-sequence (every frame its own PNG) has more than
 * MAX_PNG_SEQUENCE_FRAMES, or when from/to leave no frame of the page's length (a `to` past the end is cut there,
 * with a finding: the Worker refuses one only where it reads the duration statically).
 */
export function settleRender(
  request: ResolvedRender, info: Pick<CompositionInfo, "width" | "height" | "duration" | "fps" | "compositionId">, onFinding: (finding: Finding) => void,
): SettledRender {
  const declared = applyDeclaredFps(request, request.fpsGiven, info.fps);
  const options = declared.options;
  if (declared.finding) onFinding(makeFinding("fps-not-a-rate", request.composition, declared.finding, { selector: `[data-composition-id="${info.compositionId}"]` }));
  if (!(info.duration > 0)) throw new Error(`composition "${info.compositionId}" has no duration: set data-duration on its root element`);
  const compositionFrames = countFrames(info.duration, options.fps);
  const viewport = computeViewport(info.width, info.height, options.resolution, options.format);
  const range = settleRange(options, options.fps, compositionFrames);
  if (!range.ok) throw new RenderOptionError(range.option, `invalid ${range.option}: ${range.error}`);
  if (range.pastEnd) onFinding(makeFinding("range-past-end", request.composition, `to ${range.pastEnd}: rendered to its end`));
  const frames = range.end - range.first;
  const problems = findLimitProblems(reportedSize(info), { fps: options.fps.num / options.fps.den, source: "" });
  if (problems.length > 0) throw new Error(`composition ${describeLimitProblems(request.composition, problems)}`);
  if (options.format === "png-sequence" && frames > MAX_PNG_SEQUENCE_FRAMES) {
    throw new Error(`a png-sequence holds at most ${MAX_PNG_SEQUENCE_FRAMES} frames; this render has ${frames}: shorten it, lower fps or render a video format`);
  }
  return { options, frames, firstFrame: range.first, compositionFrames, viewport };
}

/**
 * The frame rate a render uses: an explicit `fps` option wins; without one, the root's `data-fps` decides (as in
 * HyperFrames), else 30. A GIF takes the root's `data-fps` only below GIF_DEFAULTS.fps. Returns the options to render with and, for a `data-fps` that is not a valid rate, a
 * finding that says so (the default is kept).
 */
export function applyDeclaredFps(
  options: ResolvedRender,
  fpsGiven: boolean,
  declared: string | null,
): { options: ResolvedRender; finding?: string } {
  if (fpsGiven || declared === null || declared.trim() === "") return { options };
  try {
    const { fps, fpsText } = resolveRender({ fps: declared.trim() });
    if (options.format === "gif" && fps.num / fps.den >= GIF_DEFAULTS.fps) return { options };
    return { options: { ...options, fps, fpsText } };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { options, finding: `data-fps="${declared}" on the root is not a frame rate (${reason}); rendered at ${options.fpsText} fps` };
  }
}

/**
 * How many frames a composition of a given duration has at a given frame rate. Rule: frames = round(duration ×
 * num / den), at least 1. Rounding (not flooring) keeps the video within half a frame of the composition's
 * duration: 2 s at 30 fps = 60 frames; 2 s at 30000/1001 = round(59.94) = 60 frames (2.002 s); 1.5 s at 24 = 36.
 * A tiny tolerance absorbs float noise such as 0.1 × 30 = 3.0000000000000004. Frame i is captured at frameTime(i).
 */
export function countFrames(durationSeconds: number, fps: Fps): number {
  const exact = (durationSeconds * fps.num) / fps.den;
  return Math.max(1, Math.round(exact - 1e-9));
}

export interface Viewport {
  /** CSS pixels of the page: always the composition's own size, so its fixed layout holds. */
  cssWidth: number;
  cssHeight: number;
  deviceScaleFactor: number;
  /** Pixels Chromium captures: css × deviceScaleFactor, rounded. */
  captureWidth: number;
  captureHeight: number;
  /** Pixels of the output video. When they differ from the capture (another aspect ratio), ffmpeg letterboxes. */
  outputWidth: number;
  outputHeight: number;
}

/**
 * Without a preset the output is the composition's size, except a GIF wider than GIF_DEFAULTS.width: captured at
 * full size and scaled down by ffmpeg keeping its aspect (a beginFrame capture ignores a deviceScaleFactor below 1).
 * With one, the page is scaled by deviceScaleFactor (the
 * browser renders at full output resolution, text stays sharp) to fit inside the preset; an aspect ratio that
 * differs is letterboxed, centred on black.
 */
export function computeViewport(width: number, height: number, resolution: Resolution | undefined, format?: Format): Viewport {
  if (!resolution && format === "gif" && width > GIF_DEFAULTS.width) {
    const outputHeight = Math.max(1, Math.round((height * GIF_DEFAULTS.width) / width));
    return { cssWidth: width, cssHeight: height, deviceScaleFactor: 1, captureWidth: width, captureHeight: height, outputWidth: GIF_DEFAULTS.width, outputHeight };
  }
  if (!resolution) {
    return { cssWidth: width, cssHeight: height, deviceScaleFactor: 1, captureWidth: width, captureHeight: height, outputWidth: width, outputHeight: height };
  }
  const out = RESOLUTIONS[resolution];
  const scale = Math.min(out.width / width, out.height / height);
  return {
    cssWidth: width,
    cssHeight: height,
    deviceScaleFactor: scale,
    captureWidth: Math.round(width * scale),
    captureHeight: Math.round(height * scale),
    outputWidth: out.width,
    outputHeight: out.height,
  };
}
