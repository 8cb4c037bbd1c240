// The render cost model (issue 34, point 3): the node seconds a whole render takes, from what is known before any
// node opens the page. Linear in its coefficients so bench/cost-model.ts can fit them to measured renders by least
// squares; the fitted figures live in cost-model-fit.ts, with the date and machine they were measured on. At run
// time the Worker scales the estimate by the farm's recent throughput (how recent renders' actual seconds compared
// with their estimates: throughputScale below). Pure.
import { formatKeepsAlpha, type Format, type Quality } from "./render-options.ts";

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
}

/** A render's features: its output (frames, size, format, quality) and what its composition file holds. */
export function costFeatures(
  output: Pick<CostFeatures, "frames" | "width" | "height" | "format" | "quality">,
  media: CompositionMedia,
): CostFeatures {
  return {
    ...output, videoClips: media.videoClips, audioClips: media.audioClips, shaderTransitions: media.shaderTransitions,
    alpha: keepsAlpha(output.format, media.rootBackground),
  };
}

/** The model's terms, in the order of the design matrix's columns. */
export const COST_TERMS = [
  "fixed",
  "frame",
  "megapixelFrame",
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
] as const;
export type CostTerm = (typeof COST_TERMS)[number];

/** Seconds per unit of each term. */
export type CostCoefficients = Record<CostTerm, number>;

/** One row of the design matrix: how much of each term a render has. */
export function costTerms(f: CostFeatures): Record<CostTerm, number> {
  const mpf = f.frames * ((f.width * f.height) / 1e6);
  return {
    fixed: 1,
    frame: f.frames,
    megapixelFrame: mpf,
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
