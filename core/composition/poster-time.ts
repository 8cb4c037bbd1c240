// Which moment of a render its poster image shows. A composition may name it on its root with data-poster-time
// (seconds on its own clock; HyperFrames has no such attribute, its clips' data-thumbnail-url is a URL, not a time).
// Otherwise the moment HyperFrames' studio shows a composition at when it is paused (its thumbnail seek): the middle
// of a composition of 3 s or less, else 3 s in, past most intros. Pure: the render node's poster stage and the
// linter read it.
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
