// How many frames a composition of a given duration has at a given frame rate.
import type { Fps } from "./parse-render-options.ts";

/**
 * Rule: frames = round(duration × num / den), at least 1. Rounding (not flooring) keeps the video within half a
 * frame of the composition's duration: 2 s at 30 fps = 60 frames; 2 s at 30000/1001 = round(59.94) = 60 frames
 * (2.002 s); 1.5 s at 24 = 36. A tiny tolerance absorbs float noise such as 0.1 × 30 = 3.0000000000000004.
 * Frame i is captured at time i × den / num.
 */
export function countFrames(durationSeconds: number, fps: Fps): number {
  const exact = (durationSeconds * fps.num) / fps.den;
  return Math.max(1, Math.round(exact - 1e-9));
}

/** The composition time of frame `index`, in seconds. */
export function frameTime(index: number, fps: Fps): number {
  return (index * fps.den) / fps.num;
}
