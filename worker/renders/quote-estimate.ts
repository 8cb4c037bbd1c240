// A render's quote from what the Worker knows before any node opens the page (issue 34, point 3). Pure: quote-render.ts
// gathers the facts (the composition's root as read statically, the free nodes, the queue place).
//
// The estimates are the farm model's (split-plan.ts: seconds per frame by size, a segment's fixed cost, the join),
// the same figures the room's split decision uses, so the quote says what the farm would decide now. That model
// counts pixels and frames only: a composition's <video> clips, shader transitions and audio are not counted yet, and
// the answer says so in `model.basis`.
import type { RenderQueuePlace } from "../../core/protocol/render-queue-place.ts";
import type { RenderQuote } from "../../core/protocol/render-quote.ts";
import { GIF_DEFAULTS, RESOLUTIONS, type RenderOptions } from "../../core/render/render-options.ts";
import { decideSplit, type FarmModel } from "./split-plan.ts";
import { declaredRange } from "../../core/render/render-range.ts";

/** Named in every quote, so a caller comparing quotes knows when the model changed. */
export const QUOTE_MODEL = {
  version: "farm-config-1",
  basis: "the farm model as configured (NODE_FRAMES_PER_SECOND at 1080p scaled by pixels, SEGMENT_OVERHEAD_MS, JOIN_MS_PER_VIDEO_SECOND), not yet fitted to measured renders; video clips, shader transitions and audio are not counted",
} as const;

/** What the composition's root declares, as read statically (null: not declared, or not a number). */
export interface RootFacts {
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
}

/** The output's pixels, as the node settles them (render-node/src/plan/settle-render.ts computeViewport). */
export function outputSize(root: Pick<RootFacts, "width" | "height">, options: Pick<RenderOptions, "resolution" | "format">): { width: number; height: number } | null {
  if (options.resolution) return { ...RESOLUTIONS[options.resolution] };
  if (root.width === null || root.height === null) return null;
  if (options.format === "gif" && root.width > GIF_DEFAULTS.width) {
    return { width: GIF_DEFAULTS.width, height: Math.max(1, Math.round((root.height * GIF_DEFAULTS.width) / root.width)) };
  }
  return { width: Math.round(root.width), height: Math.round(root.height) };
}

/** Frames at the render's rate: round(duration × fps), at least 1 (the node's countFrames rule). */
export function frameCount(durationSeconds: number, fps: number): number {
  return Math.max(1, Math.round(durationSeconds * fps - 1e-9));
}

/** The frames a render makes of a composition of `durationSeconds`: all of them, or its from/to range's. */
function rangeFrames(durationSeconds: number, fps: number, range: Pick<RenderOptions, "from" | "to">): number {
  const settled = declaredRange(range, fps, durationSeconds);
  return "frames" in settled ? settled.frames : frameCount(durationSeconds, fps);
}

const tenths = (seconds: number) => Math.round(seconds * 10) / 10;

export interface QuoteFacts {
  root: RootFacts | null;
  /** The rate the render will use (core/render/render-rate.ts). */
  fps: number;
  /** from/to: the quote is of the range's frames (a range outside the declared length is refused before). */
  options: Pick<RenderOptions, "resolution" | "format" | "from" | "to">;
  freeNodes: number;
  model: FarmModel;
  queue: RenderQueuePlace;
}

export function quoteOf({ root, fps, options, freeNodes, model, queue }: QuoteFacts): RenderQuote {
  const size = root ? outputSize(root, options) : null;
  const frames = root?.durationSeconds ? rangeFrames(root.durationSeconds, fps, options) : null;
  const reasons = [
    ...(root === null ? ["the composition has no root element with data-composition-id"] : []),
    ...(root && !root.durationSeconds ? ["the root declares no data-duration: the length is known only once a node loads the page"] : []),
    ...(root && !size ? ["the root declares no data-width and data-height and no resolution was given"] : []),
  ];
  const known = { fps, width: size?.width ?? null, height: size?.height ?? null, queue, model: { ...QUOTE_MODEL } };
  if (frames === null || size === null) {
    return { frames, ...known, renderSeconds: null, wallSeconds: null, segments: null, reason: reasons.join("; ") };
  }
  const durationSeconds = frames / known.fps;
  const decision = decideSplit({ frames, ...size, durationSeconds, format: options.format, freeNodes }, model);
  const segments = decision.segments.length;
  // Node seconds: the frames once, plus each segment's fixed cost and the join when split.
  const renderSeconds = segments === 1 ? decision.wholeS : decision.wholeS + segments * model.segmentOverheadS + durationSeconds * model.joinPerVideoSecondS;
  return { frames, ...known, renderSeconds: tenths(renderSeconds), wallSeconds: tenths(decision.splitS), segments, reason: null };
}

/** A batch's dry run: its rows render one after another, each costing one row's quote. */
export function batchDryRun(rows: number, quote: RenderQuote) {
  const times = (seconds: number | null) => (seconds === null ? null : tenths(rows * seconds));
  return { dryRun: true as const, rows, quote, renderSeconds: times(quote.renderSeconds), wallSeconds: times(quote.wallSeconds) };
}
