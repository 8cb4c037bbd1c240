// The pure half of the parity harness (bench/parity.ts): which frames to compare, how far apart two frames are, how
// loud and how early two audio tracks are, and which checks pass. No I/O, so it is unit-tested in `npm test`.

/** The thresholds of issue 11: encoder noise and nothing else. */
export const GOALS = {
  /** Mean absolute difference, 0-255 per channel, of one frame and of the mean over frames. */
  frameMad: 1.5,
  /** Audio level difference (mean and peak), dB. */
  levelDb: 0.5,
  /** Audio onset difference: one frame of the reference. */
  onsetFrames: 1,
  /**
   * Alpha plane mean absolute difference, 0-255 (webm and mov): the same encoder-noise bar as colour. The plane is
   * mostly 0 or 255, so a shape missing from one side's alpha or a background left opaque costs far more.
   */
  alphaMad: 1.5,
  /**
   * Audio level over time: the worst 100 ms window's level difference, dB. The whole track's mean and peak miss a
   * sound moved in time (an echo, a volume lane's shape) or an effect that changes one part of the track.
   */
  windowDb: 1,
} as const;

/** The level windows' length (seconds) and floor (dB): quieter windows count as the floor, both silent ones not at all. */
const LEVEL_WINDOW = 0.1;
const LEVEL_FLOOR_DB = -60;

export interface Rate {
  num: number;
  den: number;
}

/** An ffprobe rate ("30/1", "24000/1001", "24") as a fraction. */
export function parseRate(text: string): Rate {
  const [num, den = "1"] = text.split("/");
  const rate = { num: Number(num), den: Number(den) };
  if (!(rate.num > 0) || !(rate.den > 0)) throw new Error(`not a frame rate: ${JSON.stringify(text)}`);
  return rate;
}

export const fps = (rate: Rate): number => rate.num / rate.den;

export interface FramePair {
  /** Time of the comparison, seconds: the middle of the reference frame. */
  time: number;
  reference: number;
  candidate: number;
}

/**
 * Frames to compare at the same times: every `step`-th frame of the reference, sampled at its middle, paired with
 * the candidate frame shown at that time (the two may run at different rates). Pairs past the candidate's last
 * frame are left out (the frame-count check reports that).
 */
export function pairFrames(reference: { rate: Rate; frames: number }, candidate: { rate: Rate; frames: number }, step: number): FramePair[] {
  const pairs: FramePair[] = [];
  for (let j = 0; j < reference.frames; j += step) {
    const time = ((j + 0.5) * reference.rate.den) / reference.rate.num;
    const i = Math.floor((time * candidate.rate.num) / candidate.rate.den);
    if (i < candidate.frames) pairs.push({ time, reference: j, candidate: i });
  }
  return pairs;
}

/** Mean absolute difference of two frames of the same size, per byte (0-255 per channel). */
export function meanAbsoluteDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`frames differ in size: ${a.length} and ${b.length} bytes`);
  if (a.length === 0) throw new Error("empty frame");
  let sum = 0;
  for (let k = 0; k < a.length; k++) sum += Math.abs(a[k]! - b[k]!);
  return sum / a.length;
}

/**
 * An RGBA frame as the colour a viewer sees over black (RGB premultiplied by alpha) and its alpha plane apart.
 * Premultiplied, because the colour under a fully transparent pixel is invisible and encoders leave any value there.
 */
export function splitAlpha(rgba: Uint8Array): { colour: Uint8Array; alpha: Uint8Array } {
  if (rgba.length % 4 !== 0) throw new Error(`not RGBA: ${rgba.length} bytes`);
  const pixels = rgba.length / 4;
  const colour = new Uint8Array(pixels * 3);
  const alpha = new Uint8Array(pixels);
  for (let p = 0; p < pixels; p++) {
    const a = rgba[p * 4 + 3]!;
    alpha[p] = a;
    for (let c = 0; c < 3; c++) colour[p * 3 + c] = Math.round((rgba[p * 4 + c]! * a) / 255);
  }
  return { colour, alpha };
}

/** mean_volume and max_volume (dB) from ffmpeg's volumedetect output; null where silent or absent. */
export function parseVolumeDetect(stderr: string): { meanDb: number; peakDb: number } | null {
  const mean = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  const peak = /max_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  if (!mean || !peak || mean[1] === "-inf" || peak[1] === "-inf") return null;
  return { meanDb: Number(mean[1]), peakDb: Number(peak[1]) };
}

/**
 * Onset of sound in mono 16-bit samples, in seconds: the first sample whose magnitude reaches half the track's own
 * peak (relative, so a track mixed quieter still has its onset where it starts). Null for silence.
 */
export function onsetSeconds(samples: Int16Array, sampleRate: number): number | null {
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  if (peak === 0) return null;
  const threshold = peak / 2;
  for (let k = 0; k < samples.length; k++) if (Math.abs(samples[k]!) >= threshold) return k / sampleRate;
  return null;
}

export interface Check {
  name: string;
  pass: boolean;
  detail: string;
  /** The figure each side measured, for checks that compare two figures (audio levels, onset): what a case's expected difference is held to (parity-expected.ts). */
  figures?: { reference: number; candidate: number } | undefined;
  /** Judged against a difference the case expects (parity.json `expected`) rather than against the goal. */
  expected?: boolean | undefined;
}

export interface VideoFigures {
  reference: { rate: Rate; frames: number; width: number; height: number };
  candidate: { rate: Rate; frames: number; width: number; height: number };
  /** MAD per compared pair, in pair order. */
  mads: number[];
  /** Alpha plane MAD per pair (formats with alpha only); absent: no alpha checks. */
  alphaMads?: number[] | undefined;
}

export interface SoundFigures {
  meanDb: number;
  peakDb: number;
  onset: number | null;
  /** RMS level of each 100 ms window (levelWindows); absent: not measured, no check. */
  windows?: number[] | undefined;
}

export interface AudioFigures {
  reference: SoundFigures | null;
  candidate: SoundFigures | null;
}

/** RMS level (dBFS, at least LEVEL_FLOOR_DB) of each LEVEL_WINDOW of mono 16-bit samples. */
export function levelWindows(samples: Int16Array, sampleRate: number): number[] {
  const size = Math.round(LEVEL_WINDOW * sampleRate);
  const levels: number[] = [];
  for (let from = 0; from + size <= samples.length; from += size) {
    let sum = 0;
    for (let k = from; k < from + size; k++) sum += (samples[k]! / 32768) ** 2;
    levels.push(Math.max(LEVEL_FLOOR_DB, 10 * Math.log10(sum / size || 1e-12)));
  }
  return levels;
}

/** The check of the level over time: the worst window both tracks have, where either sounds above the floor. */
function windowCheck(a: number[], b: number[]): Check {
  let worst = 0;
  let at = -1;
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    if (a[k]! <= LEVEL_FLOOR_DB && b[k]! <= LEVEL_FLOOR_DB) continue;
    const diff = Math.abs(a[k]! - b[k]!);
    if (diff > worst) [worst, at] = [diff, k];
  }
  const where = at < 0 ? "" : ` at ${(at * LEVEL_WINDOW).toFixed(1)} s (${f2(a[at]!)} vs ${f2(b[at]!)} dB)`;
  const figures = at < 0 ? undefined : { reference: a[at]!, candidate: b[at]! };
  return { name: "audio level over time", pass: worst <= GOALS.windowDb, detail: `worst 100 ms window ${f2(worst)} dB${where}`, figures };
}

const f2 = (n: number) => n.toFixed(2);

/** "<what> mean MAD" and "<what> max MAD" over the pairs; NaN (a failure) when nothing was compared. */
function madChecks(what: string, mads: number[], goal: number): Check[] {
  const mean = mads.length ? mads.reduce((s, m) => s + m, 0) / mads.length : Number.NaN;
  const max = mads.length ? Math.max(...mads) : Number.NaN;
  return [
    { name: `${what} mean MAD`, pass: mean < goal, detail: `${f2(mean)} over ${mads.length} frames` },
    { name: `${what} max MAD`, pass: max < goal, detail: `${f2(max)} at pair ${mads.indexOf(max)}` },
  ];
}

/** The checks of one composition: shape, frames (and their alpha), and (when either side has sound) audio level and timing. */
export function judge(video: VideoFigures, audio: AudioFigures): Check[] {
  const { reference: r, candidate: c } = video;
  const frameSeconds = r.rate.den / r.rate.num;
  const checks: Check[] = [];
  checks.push({
    name: "fps",
    pass: r.rate.num * c.rate.den === c.rate.num * r.rate.den,
    detail: `${r.rate.num}/${r.rate.den} vs ${c.rate.num}/${c.rate.den}`,
  });
  const durations = [(r.frames * r.rate.den) / r.rate.num, (c.frames * c.rate.den) / c.rate.num] as const;
  checks.push({
    name: "duration",
    pass: Math.abs(durations[0] - durations[1]) < frameSeconds / 2 && r.width === c.width && r.height === c.height,
    detail: `${r.frames} frames ${r.width}x${r.height} (${f2(durations[0])} s) vs ${c.frames} frames ${c.width}x${c.height} (${f2(durations[1])} s)`,
  });
  checks.push(...madChecks("frames", video.mads, GOALS.frameMad));
  if (video.alphaMads) checks.push(...madChecks("alpha", video.alphaMads, GOALS.alphaMad));
  if (audio.reference || audio.candidate) {
    const a = audio.reference;
    const b = audio.candidate;
    if (!a || !b) {
      const missing = a ? "candidate" : "reference";
      for (const name of ["audio mean level", "audio peak level", "audio onset"]) checks.push({ name, pass: false, detail: `no sound in the ${missing}` });
    } else {
      checks.push({ name: "audio mean level", pass: Math.abs(a.meanDb - b.meanDb) <= GOALS.levelDb, detail: `${f2(a.meanDb)} vs ${f2(b.meanDb)} dB (${f2(b.meanDb - a.meanDb)})`, figures: { reference: a.meanDb, candidate: b.meanDb } });
      checks.push({ name: "audio peak level", pass: Math.abs(a.peakDb - b.peakDb) <= GOALS.levelDb, detail: `${f2(a.peakDb)} vs ${f2(b.peakDb)} dB (${f2(b.peakDb - a.peakDb)})`, figures: { reference: a.peakDb, candidate: b.peakDb } });
      const onsetPass = a.onset !== null && b.onset !== null && Math.abs(a.onset - b.onset) <= GOALS.onsetFrames * frameSeconds;
      const ms = (s: number | null) => (s === null ? "none" : `${(s * 1000).toFixed(1)} ms`);
      const onsets = a.onset !== null && b.onset !== null ? { reference: a.onset, candidate: b.onset } : undefined;
      checks.push({ name: "audio onset", pass: onsetPass, detail: `${ms(a.onset)} vs ${ms(b.onset)} (a frame is ${(frameSeconds * 1000).toFixed(1)} ms)`, figures: onsets });
      if (a.windows && b.windows) checks.push(windowCheck(a.windows, b.windows));
    }
  }
  return checks;
}
