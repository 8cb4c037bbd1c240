// A render's quote from what the Worker knows before any node opens the page (issue 34, point 3). Pure: quote-render.ts
// gathers the facts (the composition file as read statically, the free nodes, the queue place, the farm's recent
// throughput).
//
// The node seconds of a whole render are the fitted cost model's (core/render/cost-model.ts: frames, pixels, format,
// quality, video clips, audio, shader transitions, transparency; coefficients measured by bench/cost-model.ts), scaled by how recent
// renders' actual seconds compared with their estimates. Whether it is split, and into how many segments, is the
// farm's decision as the room will make it (split-plan.ts), and a split render adds the farm model's fixed cost per
// segment and the join.
import type { RenderQueuePlace } from "../../core/protocol/render-queue-place.ts";
import type { RenderQuote } from "../../core/protocol/render-quote.ts";
import type { RenderOptions } from "../../core/render/render-options.ts";
import { outputSize } from "../../core/render/output-size.ts";
import { countLimitFrames } from "../../core/composition/composition-limits.ts";
import { costFeatures, estimateSeconds } from "../../core/render/cost-model.ts";
import type { CostModelFit } from "../../core/render/cost-model-fit.ts";
import { decideSplit, type FarmModel } from "./split-plan.ts";
import { declaredRange } from "../../core/render/render-range.ts";

/** What the quote's `model.basis` says the estimate rests on. */
const basisOf = (fit: CostModelFit) =>
  `the cost model fitted on ${fit.fittedOn} to renders on ${fit.machine} (frames, the busiest browser's frames, pixels, format, quality, video clips, audio, shader transitions, transparency, CSS blur and shadow filters), scaled by the farm's recent throughput; a split adds the configured SEGMENT_OVERHEAD_MS per segment and JOIN_MS_PER_VIDEO_SECOND`;

/** What the composition file declares and holds, as read statically (null: not declared, or not a number). */
export interface RootFacts {
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  videoClips: number;
  audioClips: number;
  shaderTransitions: boolean;
  /** The root paints a background of its own (core/composition/read-cost-facts.ts). */
  rootBackground: boolean;
  /** CSS filters that blur or shadow (core/composition/read-cost-facts.ts). */
  filterEffects: boolean;
}

/** The frames a render makes of a composition of `durationSeconds`: all of them, or its from/to range's. */
function rangeFrames(durationSeconds: number, fps: number, range: Pick<RenderOptions, "from" | "to">): number {
  const settled = declaredRange(range, fps, durationSeconds);
  return "frames" in settled ? settled.frames : countLimitFrames(durationSeconds, fps);
}

const tenths = (seconds: number) => Math.round(seconds * 10) / 10;

export interface QuoteFacts {
  root: RootFacts | null;
  /** The rate the render will use (core/render/render-rate.ts). */
  fps: number;
  /** from/to: the quote is of the range's frames (a range outside the declared length is refused before). */
  options: Pick<RenderOptions, "resolution" | "format" | "quality" | "from" | "to">;
  freeNodes: number;
  model: FarmModel;
  queue: RenderQueuePlace;
  /** The cost model's coefficients (core/render/cost-model-fit.ts). */
  fit: CostModelFit;
  /** The farm's recent actual over estimated seconds (core/render/cost-model.ts throughputScale). */
  throughputScale: number;
}

export function quoteOf({ root, fps, options, freeNodes, model, queue, fit, throughputScale }: QuoteFacts): RenderQuote {
  const size = root ? outputSize(root, options) : null;
  const frames = root?.durationSeconds ? rangeFrames(root.durationSeconds, fps, options) : null;
  const reasons = [
    ...(root === null ? ["the composition has no root element with data-composition-id"] : []),
    ...(root && !root.durationSeconds ? ["the root declares no data-duration: the length is known only once a node loads the page"] : []),
    ...(root && !size ? ["the root declares no data-width and data-height and no resolution was given"] : []),
  ];
  const about = { version: fit.version, basis: basisOf(fit), throughputScale: Math.round(throughputScale * 1000) / 1000 };
  const known = { fps, width: size?.width ?? null, height: size?.height ?? null, queue, model: about };
  if (frames === null || size === null || root === null) {
    return { frames, ...known, renderSeconds: null, wallSeconds: null, segments: null, reason: reasons.join("; ") };
  }
  const durationSeconds = frames / known.fps;
  const features = costFeatures({ frames, fps: known.fps, ...size, format: options.format, quality: options.quality }, root, fit.browsers);
  const wholeS = estimateSeconds(features, fit.coefficients) * about.throughputScale;
  const decision = decideSplit({ frames, ...size, durationSeconds, format: options.format, freeNodes }, model);
  const segments = decision.segments.length;
  if (segments === 1) return { frames, ...known, renderSeconds: tenths(wholeS), wallSeconds: tenths(wholeS), segments, reason: null };
  // Split: each node takes its share of the frames after a segment's fixed cost, then the join; the node seconds
  // are the frames once, every segment's fixed cost and the join.
  const joinS = durationSeconds * model.joinPerVideoSecondS;
  const longest = Math.max(...decision.segments.map((s) => s.toFrame - s.fromFrame));
  const wallSeconds = model.segmentOverheadS + (wholeS * longest) / frames + joinS;
  const renderSeconds = wholeS + segments * model.segmentOverheadS + joinS;
  return { frames, ...known, renderSeconds: tenths(renderSeconds), wallSeconds: tenths(wallSeconds), segments, reason: null };
}

/** A batch's dry run: its rows render one after another, each costing one row's quote. */
export function batchDryRun(rows: number, quote: RenderQuote) {
  const times = (seconds: number | null) => (seconds === null ? null : tenths(rows * seconds));
  return { dryRun: true as const, rows, quote, renderSeconds: times(quote.renderSeconds), wallSeconds: times(quote.wallSeconds) };
}
