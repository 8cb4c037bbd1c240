// What a node learns by loading a composition once (frames, rate, size, audio clips), posted to the Worker so the
// ProjectRoom can split the render into segments. Same shape as render-node/src/plan-render.ts's RenderPlan.
import * as z from "zod";
import { MAX_PLAYBACK_RATE, MIN_PLAYBACK_RATE } from "../composition/playback-rate.ts";
import { MAX_ENVELOPE_POINTS } from "../composition/volume-envelope.ts";
import { MAX_LANE_POINTS } from "../composition/audio-automation.ts";
import { FindingSchema } from "./finding-schema.ts";
import { MAX_EFFECTS, RENDERED_EFFECT_TYPES } from "../composition/audio-fx-chain.ts";
// A type only: poster-time.ts reads HTML (htmlparser2), which the Worker loads on first use, not at startup.
import type { PosterMoment } from "../composition/poster-time.ts";

export const AudioClipSchema = z.object({
  src: z.string(),
  start: z.number(),
  duration: z.number().nullable(),
  mediaStart: z.number(),
  /** data-playback-rate when it is not 1 (source seconds per timeline second); absent plays at 1. */
  playbackRate: z.number().min(MIN_PLAYBACK_RATE).max(MAX_PLAYBACK_RATE).optional(),
  /** data-automation's speed lane, which replaces playbackRate (core/composition/speed-ramp.ts): its points. */
  rateLane: z.array(z.object({
    t: z.number().min(0), v: z.number().min(MIN_PLAYBACK_RATE).max(MAX_PLAYBACK_RATE), curve: z.number().min(-1).max(1),
  })).min(1).max(MAX_LANE_POINTS).optional(),
  volume: z.number(),
  kind: z.enum(["audio", "video"]),
  /** The gain over time when a script changes it (seconds from the clip's start), traced by volume-envelope.ts. */
  volumeKeyframes: z.array(z.object({ time: z.number(), volume: z.number() })).max(MAX_ENVELOPE_POINTS).optional(),
  /** data-fade-in / data-fade-out, seconds. */
  fadeIn: z.number().nonnegative().optional(),
  fadeOut: z.number().nonnegative().optional(),
  /** The rendered effects of data-fx-chain, in order, parameters defaulted and clamped (audio-fx-chain.ts). */
  effects: z.array(z.object({ type: z.enum(RENDERED_EFFECT_TYPES), params: z.record(z.string(), z.number()) })).max(MAX_EFFECTS).optional(),
});

/** The longest reason a plan may carry; the node quotes a page's invalid data-poster-time cut well short of it. */
export const POSTER_WHY_MAX_LENGTH = 200;

/**
 * The poster's moment, settled by the planning node from the root's data-poster-time (read with the composition
 * file, before any browser) and the output's frames (core/composition/poster-time.ts): the node that makes the poster
 * (the render's, or a split render's join) takes it from here and reads no HTML.
 */
export const PosterMomentSchema = z.object({
  /** The output's frame the poster shows, 0-based on the output's clock (a range render's first frame is 0). */
  frame: z.number().int().nonnegative(),
  /** That frame's moment, seconds from the output's start: what the log says. */
  seconds: z.number().nonnegative(),
  /** How it was chosen, for the log: `data-poster-time="1.5"`, or why it is the default moment. */
  why: z.string().max(POSTER_WHY_MAX_LENGTH),
});

// The schema and the interface describe one shape: this fails to compile if they drift.
const sameShape: [z.infer<typeof PosterMomentSchema>, PosterMoment] extends [PosterMoment, z.infer<typeof PosterMomentSchema>] ? true : never = true;
void sameShape;

export const RenderPlanSchema = z.object({
  composition: z.string(),
  frames: z.number().int().positive(),
  fps: z.object({ num: z.number().int().positive(), den: z.number().int().positive() }),
  fpsText: z.string(),
  /** The output's length: frames at fps (a range render's, not the composition's). */
  durationSeconds: z.number().positive(),
  /**
   * A range render's first frame on the composition's clock (its `from`): output frame n is composition frame
   * firstFrame + n. The audio clips stay on the composition's clock: the mix is the full render's, cut to the range.
   * Absent: 0.
   */
  firstFrame: z.number().int().positive().optional(),
  /**
   * The poster's moment (PosterMomentSchema). Absent in a plan from a node older than the field, stored or posted
   * while a deploy is under way: the poster is then the default moment of the plan's duration, and the node's log
   * says the plan named none (plannedPosterMoment in core/composition/poster-time.ts).
   */
  poster: PosterMomentSchema.optional(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Frames keep their alpha (a transparent webm or mov, a png-sequence): every segment and the join follow it. */
  alpha: z.boolean().optional(),
  audio: z.array(AudioClipSchema).max(1000),
  findings: z.array(FindingSchema).max(1000),
}).refine((plan) => !plan.poster || plan.poster.frame < plan.frames, { message: "the poster's frame is past the plan's last frame", path: ["poster", "frame"] });
export type RenderPlan = z.infer<typeof RenderPlanSchema>;

/** One frame range of a split render: frames [fromFrame, toFrame). */
export const SegmentRangeSchema = z.object({
  index: z.number().int().nonnegative(),
  fromFrame: z.number().int().nonnegative(),
  toFrame: z.number().int().positive(),
});
export type SegmentRange = z.infer<typeof SegmentRangeSchema>;
