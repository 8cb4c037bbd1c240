// An audio clip's gain, as HyperFrames 0.8.170 renders it (its core's audioGain and the producer's mixer, read from
// its dist): data-volume is a linear gain from 0 (silence) up to +12 dB (10^(12/20) ≈ 3.981), read as parseFloat
// reads it; a value that is not a number plays at 1, a negative one at 0, one past the ceiling at the ceiling. A
// script may set (or a GSAP tween animate) the element's volume over time in the same range; data-fade-in and
// data-fade-out (seconds) add linear fades at the clip's edges, shortened in proportion when they overlap. Pure.

export const MAX_GAIN_DB = 12;
export const MAX_GAIN = 10 ** (MAX_GAIN_DB / 20);

/** A gain in [0, MAX_GAIN]; anything not a finite number is 1 (unity), as HyperFrames' mixer takes it. */
export function clampGain(value: number): number {
  if (!Number.isFinite(value)) return 1;
  return Math.max(0, Math.min(MAX_GAIN, value));
}

/** The gain a data-volume value means before clamping (parseFloat: "2", "2.5", "2dB" → 2); absent or blank: 1. */
export function authoredVolume(raw: string | null): number {
  return raw ? Number.parseFloat(raw) : 1;
}

/** The gain the mixer applies for a data-volume value. */
export function readVolume(raw: string | null): number {
  return clampGain(authoredVolume(raw));
}

/** Why a data-volume value does not play as written, or null when it does. */
export function volumeProblem(raw: string | null): string | null {
  if (raw === null || raw.trim() === "") return null;
  const value = authoredVolume(raw);
  if (!Number.isFinite(value)) return `data-volume="${raw}" is not a number, so the clip plays at 1 (unity gain).`;
  if (!Number.isFinite(Number(raw.trim()))) {
    return `data-volume="${raw}" is read as ${value}: only the number at its start counts.`;
  }
  if (value < 0) return `data-volume="${raw}" is negative, so the clip is silent (0).`;
  if (value > MAX_GAIN) return `data-volume="${raw}" is above the +${MAX_GAIN_DB} dB ceiling (${MAX_GAIN.toFixed(3)}), so it plays at ${MAX_GAIN.toFixed(3)}.`;
  return null;
}

/** A fade length in seconds from data-fade-in/data-fade-out: positive and finite, else 0 (no fade). */
export function readFadeSeconds(raw: string | null): number {
  if (raw === null || raw === "") return 0;
  const value = Number.parseFloat(raw);
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/** Fades that together outlast the clip are both shortened in proportion, so they meet instead of overlapping. */
export function fitFades(fadeIn: number, fadeOut: number, duration: number | null): { fadeIn: number; fadeOut: number } {
  const total = fadeIn + fadeOut;
  if (duration === null || !(duration > 0) || total <= duration) return { fadeIn, fadeOut };
  const scale = duration / total;
  return { fadeIn: fadeIn * scale, fadeOut: fadeOut * scale };
}
