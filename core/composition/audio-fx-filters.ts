// The ffmpeg filters that sound a clip's rendered effects (audio-fx-chain.ts) as HyperFrames' Web Audio chain sounds
// them: each biquad with the coefficients the Web Audio spec (and Chromium) compute for its BiquadFilterNode, a
// one-pole filter as its IIRFilterNode, gain as a level, and the feedback delay (a DelayNode looping through a gain,
// mixed with the dry sound) as the sum of its echoes. The chain rings on after the clip's last sample as
// HyperFrames lets it (`fxTailSeconds`). Pure.
import type { AudioEffect } from "./audio-fx-chain.ts";

/** The mix's sample rate (build-audio-mix-args.ts), the rate HyperFrames renders its chains at. */
export const FX_SAMPLE_RATE = 48_000;
/** Longest ring HyperFrames keeps after a clip (its MAX_FX_TAIL_SECONDS). */
const MAX_TAIL_SECONDS = 5;
/** An echo this far down (-60 dB) is where HyperFrames stops counting a delay's ring. */
const TAIL_FLOOR = 1e-3;

const num = (value: number): string => Number(value.toPrecision(12)).toString();

interface Biquad {
  b: [number, number, number];
  a: [number, number, number];
}

function biquadFilter({ b, a }: Biquad): string {
  return `biquad=b0=${num(b[0])}:b1=${num(b[1])}:b2=${num(b[2])}:a0=${num(a[0])}:a1=${num(a[1])}:a2=${num(a[2])}`;
}

/** The Web Audio BiquadFilterNode's coefficients (the Audio EQ Cookbook; lowpass and highpass read Q in dB). */
function biquad(type: AudioEffect["type"], params: Record<string, number>): Biquad {
  const w0 = (2 * Math.PI * params.frequency!) / FX_SAMPLE_RATE;
  const cos = Math.cos(w0);
  const sin = Math.sin(w0);
  if (type === "lowpass" || type === "highpass") {
    const alpha = sin / (2 * 10 ** (params.q! / 20));
    const a: Biquad["a"] = [1 + alpha, -2 * cos, 1 - alpha];
    if (type === "lowpass") return { b: [(1 - cos) / 2, 1 - cos, (1 - cos) / 2], a };
    return { b: [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2], a };
  }
  const A = 10 ** (params.gain! / 40);
  if (type === "peaking") {
    const alpha = sin / (2 * params.q!);
    return { b: [1 + alpha * A, -2 * cos, 1 - alpha * A], a: [1 + alpha / A, -2 * cos, 1 - alpha / A] };
  }
  // Shelves at slope 1 (the spec's fixed S): 2·sqrt(A)·alpha = sin·sqrt(2A).
  const k = sin * Math.sqrt(2 * A);
  if (type === "lowshelf") {
    return {
      b: [A * (A + 1 - (A - 1) * cos + k), 2 * A * (A - 1 - (A + 1) * cos), A * (A + 1 - (A - 1) * cos - k)],
      a: [A + 1 + (A - 1) * cos + k, -2 * (A - 1 + (A + 1) * cos), A + 1 + (A - 1) * cos - k],
    };
  }
  return {
    b: [A * (A + 1 + (A - 1) * cos + k), -2 * A * (A - 1 + (A + 1) * cos), A * (A + 1 + (A - 1) * cos - k)],
    a: [A + 1 - (A - 1) * cos + k, 2 * (A - 1 - (A + 1) * cos), A + 1 - (A - 1) * cos - k],
  };
}

/** HyperFrames' one-pole ("6 dB/oct") filters: the bilinear transform of a first-order low- or high-pass. */
function onePole(type: "lowpass" | "highpass", frequency: number): Biquad {
  const t = Math.tan((Math.PI * frequency) / FX_SAMPLE_RATE);
  const a: Biquad["a"] = [1, (t - 1) / (t + 1), 0];
  return type === "lowpass" ? { b: [t / (1 + t), t / (1 + t), 0], a } : { b: [1 / (1 + t), -1 / (1 + t), 0], a };
}

/** How many echoes a delay sounds before they fall under TAIL_FLOOR: HyperFrames' ring length over the gap. */
function echoCount(feedback: number): number {
  return Math.max(1, Math.ceil(Math.log(TAIL_FLOOR) / Math.log(feedback)));
}

/**
 * The delay: (1 - mix)·dry + mix·Σ feedback^(k-1)·dry(t - k·time), k from 1, the loop unrolled into aecho's taps
 * (its decays must be above 0: a mix of 0 leaves the dry sound alone).
 */
function delayFilter(params: Record<string, number>): string {
  const { time, feedback, mix } = params as { time: number; feedback: number; mix: number };
  if (mix <= 0) return "anull";
  const delays: string[] = [];
  const decays: string[] = [];
  // aecho's delays stop at 90 s.
  for (let k = 1; k <= echoCount(feedback) && k * time <= 90_000; k++) {
    delays.push(num(k * time));
    decays.push(num(mix * feedback ** (k - 1)));
  }
  return `aecho=in_gain=${num(1 - mix)}:out_gain=1:delays=${delays.join("|")}:decays=${decays.join("|")}`;
}

function effectFilter({ type, params }: AudioEffect): string {
  if (type === "gain") return `volume=${num(10 ** (params.gain! / 20))}`;
  if (type === "delay") return delayFilter(params);
  if ((type === "lowpass" || type === "highpass") && params.poles === 1) return biquadFilter(onePole(type, params.frequency!));
  return biquadFilter(biquad(type, params));
}

/** The chain's filters, in order, for a stereo stream at FX_SAMPLE_RATE; empty for no effect. */
export function fxFilters(effects: readonly AudioEffect[]): string[] {
  return effects.map(effectFilter);
}

/** Seconds the chain sounds after the clip's last sample (a delay's echoes), at most 5 as in HyperFrames. */
export function fxTailSeconds(effects: readonly AudioEffect[]): number {
  const total = effects.reduce((sum, { type, params }) => {
    if (type !== "delay" || params.mix! <= 0) return sum;
    return sum + echoCount(params.feedback!) * Math.min(5, params.time! / 1000);
  }, 0);
  return Math.min(MAX_TAIL_SECONDS, total);
}
