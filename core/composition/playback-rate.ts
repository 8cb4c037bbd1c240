// A media clip's constant speed, as HyperFrames 0.8.170 reads it (its core's readPlaybackRate, read from its dist):
// data-playback-rate on an <audio> or <video> is read as parseFloat reads it; a value that is not a positive number
// plays at 1, and the rest is clamped to 0.1–10. At rate r the clip shows and sounds its source from its in-point
// at r seconds per second of the timeline; sound keeps its pitch (ffmpeg's atempo in the render, the browser's
// preservesPitch in the player). A speed ramp (data-automation's "rate" lane, speed-ramp.ts) replaces it. Pure.

export const MIN_PLAYBACK_RATE = 0.1;
export const MAX_PLAYBACK_RATE = 10;

/** The speed a data-playback-rate value plays at: 1 when absent or not a positive number, else clamped to 0.1–10. */
export function readPlaybackRate(raw: string | null): number {
  const value = raw === null ? Number.NaN : Number.parseFloat(raw);
  if (!Number.isFinite(value) || value <= 0) return 1;
  return Math.max(MIN_PLAYBACK_RATE, Math.min(MAX_PLAYBACK_RATE, value));
}

/** Why a data-playback-rate value does not play as written, or null when it does. */
export function playbackRateProblem(raw: string | null): string | null {
  if (raw === null || raw.trim() === "") return null;
  const value = Number.parseFloat(raw);
  if (!Number.isFinite(value)) return `data-playback-rate="${raw}" is not a number, so the clip plays at normal speed (1).`;
  if (!Number.isFinite(Number(raw.trim()))) return `data-playback-rate="${raw}" is read as ${value}: only the number at its start counts.`;
  if (value <= 0) return `data-playback-rate="${raw}" is not above 0, so the clip plays at normal speed (1).`;
  const played = readPlaybackRate(raw);
  if (played !== value) return `data-playback-rate="${raw}" is outside ${MIN_PLAYBACK_RATE}–${MAX_PLAYBACK_RATE}, so it plays at ${played}.`;
  return null;
}

/**
 * The atempo factors that make `rate`: each within 0.5–2, the range every ffmpeg's atempo takes (4.1's too), the
 * factors multiplying to the rate. Empty for 1.
 */
export function atempoFactors(rate: number): number[] {
  const factors: number[] = [];
  let rest = rate;
  while (rest > 2 + 1e-9) {
    factors.push(2);
    rest /= 2;
  }
  while (rest < 0.5 - 1e-9) {
    factors.push(0.5);
    rest /= 0.5;
  }
  if (Math.abs(rest - 1) > 1e-9) factors.push(rest);
  return factors;
}
