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
} as const;

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
}

export interface VideoFigures {
  reference: { rate: Rate; frames: number; width: number; height: number };
  candidate: { rate: Rate; frames: number; width: number; height: number };
  /** MAD per compared pair, in pair order. */
  mads: number[];
}

export interface AudioFigures {
  reference: { meanDb: number; peakDb: number; onset: number | null } | null;
  candidate: { meanDb: number; peakDb: number; onset: number | null } | null;
}

const f2 = (n: number) => n.toFixed(2);

/** The checks of one composition: shape, frames, and (when either side has sound) audio level and timing. */
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
  const mean = video.mads.length ? video.mads.reduce((s, m) => s + m, 0) / video.mads.length : Number.NaN;
  const max = video.mads.length ? Math.max(...video.mads) : Number.NaN;
  const worst = video.mads.indexOf(max);
  checks.push({ name: "frames mean MAD", pass: mean < GOALS.frameMad, detail: `${f2(mean)} over ${video.mads.length} frames` });
  checks.push({ name: "frames max MAD", pass: max < GOALS.frameMad, detail: `${f2(max)} at pair ${worst}` });
  if (audio.reference || audio.candidate) {
    const a = audio.reference;
    const b = audio.candidate;
    if (!a || !b) {
      const missing = a ? "candidate" : "reference";
      for (const name of ["audio mean level", "audio peak level", "audio onset"]) checks.push({ name, pass: false, detail: `no sound in the ${missing}` });
    } else {
      checks.push({ name: "audio mean level", pass: Math.abs(a.meanDb - b.meanDb) <= GOALS.levelDb, detail: `${f2(a.meanDb)} vs ${f2(b.meanDb)} dB (${f2(b.meanDb - a.meanDb)})` });
      checks.push({ name: "audio peak level", pass: Math.abs(a.peakDb - b.peakDb) <= GOALS.levelDb, detail: `${f2(a.peakDb)} vs ${f2(b.peakDb)} dB (${f2(b.peakDb - a.peakDb)})` });
      const onsetPass = a.onset !== null && b.onset !== null && Math.abs(a.onset - b.onset) <= GOALS.onsetFrames * frameSeconds;
      const ms = (s: number | null) => (s === null ? "none" : `${(s * 1000).toFixed(1)} ms`);
      checks.push({ name: "audio onset", pass: onsetPass, detail: `${ms(a.onset)} vs ${ms(b.onset)} (a frame is ${(frameSeconds * 1000).toFixed(1)} ms)` });
    }
  }
  return checks;
}
