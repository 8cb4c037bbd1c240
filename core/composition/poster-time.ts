// Which moment of a render its poster image shows. A composition may name it on its root with data-poster-time
// (seconds on its own clock; HyperFrames has no such attribute, its clips' data-thumbnail-url is a URL, not a time).
// Otherwise the moment HyperFrames' studio shows a composition at when it is paused (its thumbnail seek): the middle
// of a composition of 3 s or less, else 3 s in, past most intros. Pure: the render node's plan settles the moment
// once (settlePosterMoment), its poster stage takes it from the plan (plannedPosterMoment), and the linter reads it.
import { readAttribute, type HtmlElement } from "../html/parse-html.ts";
import { parseSeconds } from "./parse-number-attribute.ts";

export const POSTER_TIME_ATTRIBUTE = "data-poster-time";

/** HyperFrames' paused-preview moment: half of a short composition, else this many seconds in. */
const DEFAULT_POSTER_SECONDS = 3;

/** The root's data-poster-time: absent (null), seconds, or the text that is not a time within `duration`. */
export type DeclaredPosterTime = { seconds: number } | { invalid: string } | null;

/** Reads data-poster-time from a root element; a value must be seconds in [0, duration) when the duration is known. */
export function readPosterTime(root: HtmlElement, duration: number | null): DeclaredPosterTime {
  const text = readAttribute(root, POSTER_TIME_ATTRIBUTE);
  if (text === null) return null;
  const seconds = parseSeconds(text);
  if (seconds === null || seconds < 0) return { invalid: text };
  if (duration !== null && duration > 0 && seconds >= duration) return { invalid: text };
  return { seconds };
}

/**
 * The poster's moment on the output's clock, for an output of `duration` seconds that shows the composition from
 * `start` (its `from`; 0 for a whole render): the declared time (on the composition's clock) when the output shows
 * it, else the default moment of the output.
 */
export function choosePosterTime(declared: DeclaredPosterTime, duration: number, start = 0): number {
  const at = declared && "seconds" in declared ? declared.seconds - start : -1;
  if (at >= 0 && at < duration) return at;
  return duration > 0 && duration <= DEFAULT_POSTER_SECONDS ? duration / 2 : Math.min(DEFAULT_POSTER_SECONDS, duration);
}

/** The frame shown at `seconds` in a video of `frames` frames at `fps` (the last frame at most). */
export function posterFrame(seconds: number, fps: number, frames: number): number {
  // A hair of tolerance so that 3 s at 30 fps is frame 90, not 89 from 2.9999999.
  return Math.max(0, Math.min(frames - 1, Math.floor(seconds * fps + 1e-4)));
}

/** The poster's moment of one output, settled once by the plan (core/protocol/render-plan.ts carries it). */
export interface PosterMoment {
  /** The output's frame the poster shows (0-based, on the output's clock: a range render's first frame is 0). */
  frame: number;
  /** When that moment is, in seconds from the output's start. */
  seconds: number;
  /** How the moment was chosen, for the render's log: the declared data-poster-time, or why the default moment. */
  why: string;
}

/** What the moment depends on of the output: its frames at its rate, and where it starts on the composition's clock. */
export interface PosterOutput {
  frames: number;
  fps: number;
  durationSeconds: number;
  /** A range render's first frame on the composition's clock (0 for a whole render): data-poster-time is on that clock. */
  firstFrame: number;
}

/** The moment of `output` for the root's declared data-poster-time, with the log's reason for it. */
export function settlePosterMoment(declared: DeclaredPosterTime, output: PosterOutput): PosterMoment {
  // data-poster-time is on the composition's clock; a range's output shows it from its first frame.
  const start = output.firstFrame / output.fps;
  const seconds = choosePosterTime(declared, output.durationSeconds, start);
  const frame = posterFrame(seconds, output.fps, output.frames);
  const why = declared && "seconds" in declared && declared.seconds - start === seconds
    ? `${POSTER_TIME_ATTRIBUTE}="${declared.seconds}"`
    : declared && "invalid" in declared ? `${POSTER_TIME_ATTRIBUTE}="${quoted(declared.invalid)}" is not a time within the video, so the default moment` : "the default moment";
  return { frame, seconds, why };
}

/** Longest attribute text the reason quotes: the reason travels in the plan, whose field is bounded (render-plan.ts). */
const MAX_QUOTED = 80;

/** The page's own text, cut so that the reason stays within the plan's bound (render-plan.ts POSTER_WHY_MAX_LENGTH). */
function quoted(text: string): string {
  return text.length <= MAX_QUOTED ? text : `${text.slice(0, MAX_QUOTED)}…`;
}

/** Of a plan, what the poster needs: the moment it settled, when its node settled one. */
export interface PlannedPoster {
  frames: number;
  fps: { num: number; den: number };
  durationSeconds: number;
  poster?: PosterMoment | undefined;
}

/** Said when a plan names no moment, so the log never shows a default moment as if the composition had none. */
const UNPLANNED_POSTER_WHY = "the default moment: the plan names none, made by an older render node";

/**
 * The moment the plan settled. A plan from a node older than the field (a deploy under way) names none: its output's
 * default moment then, which is the poster those nodes made for a composition without data-poster-time, and the
 * log says the plan named none. Never the composition file read again: the join of a split render has the plan alone.
 */
export function plannedPosterMoment(plan: PlannedPoster): PosterMoment {
  if (plan.poster) return plan.poster;
  const moment = settlePosterMoment(null, { frames: plan.frames, fps: plan.fps.num / plan.fps.den, durationSeconds: plan.durationSeconds, firstFrame: 0 });
  return { ...moment, why: UNPLANNED_POSTER_WHY };
}
