// What a capture session is asked for (the render options it reads, the controls of how it captures) and the
// choices made from them before any browser starts: the options resolved, how many browsers a range gets.
// Pure; capture-session.ts runs the session.
import { availableParallelism } from "node:os";
import type { RenderOptions as ApiRenderOptions } from "../../../core/render/render-options.ts";
import type { Binaries } from "../system/resolve-binaries.ts";
import type { CaptureMode } from "../browser/launch-capture-browser.ts";
import type { Timeline } from "../progress/render-timeline.ts";
import type { ScratchBudget } from "../media/scratch-budget.ts";
import type { StageBounds } from "../bounds/stage-bounds.ts";
import { resolveRender, type ResolvedRender } from "../plan/resolve-render.ts";

/** The render options a session reads: the API's (core/render) fields, each optional. */
export type SessionOptions = Partial<Pick<ApiRenderOptions, "quality" | "fps" | "format" | "composition" | "resolution" | "variables" | "strictVariables" | "crf" | "videoBitrate" | "gifLoop" | "from" | "to">> & {
  /** Undefined values are dropped (the API schema rejects nothing for them). */
  [key: string]: unknown;
};

/** How a capture runs, the same for a whole render, a plan and a segment. */
export interface CaptureControls {
  /** A blocked network attempt or a missing asset fails the render (otherwise it is a finding in the log). */
  strict?: boolean | undefined;
  /** Force the screenshot path even where beginFrame works (for comparison). */
  captureMode?: CaptureMode | undefined;
  binaries?: Binaries | undefined;
  /** How long each stage may take (default: DEFAULT_STAGE_BOUNDS; the node's from its configuration). */
  bounds?: StageBounds | undefined;
  /** Bytes and frames the job's <video> frames may take (default: DEFAULT_SCRATCH_BUDGET; the node's from its configuration). */
  scratchBudget?: ScratchBudget | undefined;
  /**
   * Frame reuse: a frame the page proves identical to the one before is not captured again (the encoder gets the
   * previous frame's bytes). Default on; the node passes its configuration's (`STUDIO_FRAME_REUSE=off` turns it off).
   */
  frameReuse?: boolean | undefined;
  signal: AbortSignal;
  onLine?: ((line: string) => void) | undefined;
  /** Where the session records its stages (loading, capturing, finishing chunks); default a timeline of its own. */
  timeline?: Timeline | undefined;
}

/**
 * What a capture session is opened with: the node's side of a render only (its binaries, bounds, budget, signal
 * and log), none of the job's options. Those go to each stage, each taking what it reads.
 */
export interface SessionInput extends Omit<CaptureControls, "strict"> {
  projectDir: string;
}

/**
 * The request's options resolved for the stages (plan-render.ts settles the frame rate from the page). Undefined
 * and null values are dropped first (the API schema rejects nothing for them); strict as a parameter, else as the
 * API's option (the job's options carry it).
 */
export function resolveRequest(options: SessionOptions, strict?: boolean): ResolvedRender {
  const raw = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined && v !== null));
  const resolved = resolveRender({
    quality: raw["quality"], fps: raw["fps"], format: raw["format"], resolution: raw["resolution"], composition: raw["composition"],
    variables: raw["variables"], strictVariables: raw["strictVariables"],
    crf: raw["crf"], videoBitrate: raw["videoBitrate"], gifLoop: raw["gifLoop"], from: raw["from"], to: raw["to"],
  });
  return { ...resolved, strict: strict ?? raw["strict"] === true };
}

/** Browsers at once for a range: one per core by default, but never fewer than 15 frames each. */
export function browsersFor(frames: number, concurrency: number): number {
  return Math.max(1, Math.min(concurrency, Math.floor(frames / 15) || 1));
}

export function checkConcurrency(value: number | undefined): number {
  const concurrency = value ?? availableParallelism();
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
    throw new Error(`invalid option "concurrency": expected an integer from 1 to 32; received ${JSON.stringify(value)}`);
  }
  return concurrency;
}
