// The render cost model (issue 34, point 3): the node seconds a whole render takes, from what is known before any
// node opens the page. Linear in its coefficients so bench/cost-model.ts can fit them to measured renders by least
// squares; the fitted figures live in cost-model-fit.ts, with the date and machine they were measured on. At run
// time the Worker scales the estimate by the farm's recent throughput (how recent renders' actual seconds compared
// with their estimates: throughputScale below). Pure.
import { formatKeepsAlpha, type Format, type Quality } from "./render-options.ts";
import { segmentFrames } from "./segment-plan.ts";

/** What the model reads of a render: its output, its length and what the composition's root file holds. */
export interface CostFeatures {
  frames: number;
  width: number;
  height: number;
  format: Format;
  quality: Quality;
  /** <video> elements in the composition file: each is decoded for every frame it shows. */
  videoClips: number;
  /** <audio> elements: mixed once, after capture. */
  audioClips: number;
  /** Whether the file loads HyperFrames' shader-transition library (scenes sampled into WebGL textures). */
  shaderTransitions: boolean;
  /** The output keeps an alpha plane (keepsAlpha): PNG frames from Chromium, the encoder's alpha plane. */
  alpha: boolean;
  /** The composition blurs or shadows with CSS filters (blur, drop-shadow, backdrop-filter): dearer to paint. */
  filterEffects: boolean;
  /**
   * The frames the busiest browser of the node captures (busiestBrowserFrames): the wall time of a capture follows
   * it, not the frames in all. A render of one segment is one browser's work; three segments on two browsers end
   * after two segments' time.
   */
  pathFrames: number;
}

/**
 * The frames the busiest of a node's browsers captures: the render's one-second fixed segments (segment-plan.ts) are
 * taken in turn by at most `browsers` browsers, never more browsers than segments, so the busiest takes
 * ceil(segments / browsers) of them.
 */
export function busiestBrowserFrames(frames: number, fps: number, browsers: number): number {
  const size = segmentFrames({ num: fps, den: 1 });
  const segments = Math.ceil(frames / size);
  const used = Math.max(1, Math.min(browsers, segments));
  return Math.min(frames, Math.ceil(segments / used) * size);
}

/**
 * Whether a render keeps an alpha plane, as far as the file says: a format with one (webm, mov, png-sequence), of a
 * root that paints no background of its own (core/composition/read-cost-facts.ts rootBackground).
 */
export function keepsAlpha(format: Format, rootBackground: boolean): boolean {
  return formatKeepsAlpha(format) && !rootBackground;
}

/** What the composition file holds, as read statically (core/composition/read-cost-facts.ts). */
export interface CompositionMedia {
  videoClips: number;
  audioClips: number;
  shaderTransitions: boolean;
  rootBackground: boolean;
  filterEffects: boolean;
}

/** What a render outputs: frames at a rate, a size, a format and a quality. */
export type RenderOutput = Pick<CostFeatures, "frames" | "width" | "height" | "format" | "quality"> & { fps: number };

/**
 * A render's features: its output, what its composition file holds, and how many browsers a node captures with
 * (the fit's, CostModelFit.browsers: the model is of the nodes it was measured on).
 */
export function costFeatures(output: RenderOutput, media: CompositionMedia, browsers: number): CostFeatures {
  const { fps, ...rest } = output;
  return {
    ...rest, videoClips: media.videoClips, audioClips: media.audioClips, shaderTransitions: media.shaderTransitions,
    alpha: keepsAlpha(output.format, media.rootBackground), filterEffects: media.filterEffects,
    pathFrames: busiestBrowserFrames(output.frames, fps, browsers),
  };
}

/** The model's terms, in the order of the design matrix's columns. */
export const COST_TERMS = [
  "fixed",
  "frame",
  "megapixelFrame",
  "pathFrame",
  "pathMegapixelFrame",
  "webmMegapixelFrame",
  "movMegapixelFrame",
  "gifMegapixelFrame",
  "pngSequenceMegapixelFrame",
  "highMegapixelFrame",
  "draftMegapixelFrame",
  "videoClipFrame",
  "audioClip",
  "shaderFrame",
  "alphaMegapixelFrame",
  "webmAlphaMegapixelFrame",
  "filterMegapixelFrame",
] as const;
export type CostTerm = (typeof COST_TERMS)[number];

/** Seconds per unit of each term. */
export type CostCoefficients = Record<CostTerm, number>;

/** One row of the design matrix: how much of each term a render has. */
export function costTerms(f: CostFeatures): Record<CostTerm, number> {
  const megapixels = (f.width * f.height) / 1e6;
  const mpf = f.frames * megapixels;
  return {
    fixed: 1,
    frame: f.frames,
    megapixelFrame: mpf,
    pathFrame: f.pathFrames,
    pathMegapixelFrame: f.pathFrames * megapixels,
    webmMegapixelFrame: f.format === "webm" ? mpf : 0,
    movMegapixelFrame: f.format === "mov" ? mpf : 0,
    gifMegapixelFrame: f.format === "gif" ? mpf : 0,
    pngSequenceMegapixelFrame: f.format === "png-sequence" ? mpf : 0,
    highMegapixelFrame: f.quality === "high" ? mpf : 0,
    draftMegapixelFrame: f.quality === "draft" ? mpf : 0,
    videoClipFrame: f.videoClips * f.frames,
    audioClip: f.audioClips,
    shaderFrame: f.shaderTransitions ? f.frames : 0,
    alphaMegapixelFrame: f.alpha ? mpf : 0,
    // VP9's alpha plane is a second encode; ProRes 4444 and PNG keep alpha almost for free.
    webmAlphaMegapixelFrame: f.alpha && f.format === "webm" ? mpf : 0,
    filterMegapixelFrame: f.filterEffects ? mpf : 0,
  };
}

/** The model's node seconds for a whole render (never below the fixed cost). */
export function estimateSeconds(f: CostFeatures, c: CostCoefficients): number {
  const terms = costTerms(f);
  const sum = COST_TERMS.reduce((total, term) => total + terms[term] * c[term], 0);
  return Math.max(c.fixed, sum);
}

/** How far the farm's pace may move an estimate: beyond this a sample is more likely broken than the farm. */
export const THROUGHPUT_SCALE_RANGE = { min: 0.25, max: 4 } as const;

/**
 * The factor estimates are scaled by: the median of recent renders' actual over estimated seconds (renders quoted
 * by this model version), kept within THROUGHPUT_SCALE_RANGE; 1 when there are none. A slow or loaded farm makes
 * every quote longer, a fast one shorter, without refitting.
 */
export function throughputScale(ratios: readonly number[]): number {
  const usable = ratios.filter((r) => Number.isFinite(r) && r > 0).sort((a, b) => a - b);
  if (usable.length === 0) return 1;
  const mid = usable.length >> 1;
  const median = usable.length % 2 ? usable[mid]! : (usable[mid - 1]! + usable[mid]!) / 2;
  return Math.min(THROUGHPUT_SCALE_RANGE.max, Math.max(THROUGHPUT_SCALE_RANGE.min, median));
}
