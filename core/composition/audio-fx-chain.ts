// data-fx-chain on an <audio>/<video>, as HyperFrames 0.8.170 reads it (its core's audioFx table, read from its
// dist): JSON `{"version":1,"nodes":[{"type":"lowpass","params":{"frequency":800}}, ...]}`, the nodes run in order
// on the clip's sound (after its trim and speed, before its gain and fades); a node with `"enabled": false` is
// skipped; a parameter that is missing or not a number takes its default, one out of range is clamped. HyperFrames
// renders the chain with Web Audio in a browser; the studio renders the effects whose Web Audio nodes are exact
// formulas (gain, the biquad filters, the feedback delay) as ffmpeg filters with the same coefficients
// (audio-fx-filters.ts). The rest (dynamics worklets, reverb, saturation, modulation, pitch) and a preset's partial
// amount are named by `unsupported` and left out of the sound. Pure.
import { readTreatmentList } from "./read-treatment-json.ts";

export const RENDERED_EFFECT_TYPES = ["gain", "peaking", "lowshelf", "highshelf", "highpass", "lowpass", "delay"] as const;
export type RenderedEffectType = (typeof RENDERED_EFFECT_TYPES)[number];

/** Longest data-fx-chain or data-automation value a page reports to the node (HyperFrames keeps a lane to 512 points). */
export const MAX_TREATMENT_CHARS = 100_000;

/** Most effects a clip's chain renders (a render plan carries them). */
export const MAX_EFFECTS = 64;

export interface AudioEffect {
  type: RenderedEffectType;
  /** Every parameter of the type, defaulted and clamped; `poles` is 1 or 2. */
  params: Record<string, number>;
}

export interface ParsedFxChain {
  effects: AudioEffect[];
  /** What HyperFrames would do that the studio leaves out, one phrase each ("reverb", "compressor"...). */
  unsupported: string[];
  /** Why the attribute could not be read at all, as HyperFrames refuses it (then nothing is applied). */
  problem: string | null;
}

interface NumberParam {
  min: number;
  max: number;
  default: number;
}

const frequency = (fallback: number, min = 20, max = 20_000): NumberParam => ({ min, max, default: fallback });
const q = (fallback: number): NumberParam => ({ min: 0.1, max: 20, default: fallback });
const gain = (min: number, max: number): NumberParam => ({ min, max, default: 0 });
const poles: NumberParam = { min: 1, max: 2, default: 2 };

/** The parameters of each rendered type: ranges and defaults as HyperFrames declares them. */
const RENDERED: Record<RenderedEffectType, Record<string, NumberParam>> = {
  gain: { gain: gain(-60, 12) },
  peaking: { frequency: frequency(1000), gain: gain(-40, 40), q: q(1) },
  lowshelf: { frequency: frequency(200, 20, 2000), gain: gain(-40, 40) },
  highshelf: { frequency: frequency(4000, 500, 20_000), gain: gain(-40, 40) },
  highpass: { frequency: frequency(300), q: q(0.707), poles },
  lowpass: { frequency: frequency(8000, 100, 20_000), q: q(0.707), poles },
  delay: {
    time: { min: 1, max: 5000, default: 250 },
    feedback: { min: 0.01, max: 0.95, default: 0.35 },
    mix: { min: 0, max: 1, default: 0.4 },
  },
};

/** HyperFrames' other effect types: read (so a chain using them is not an error) but not rendered. */
const NOT_RENDERED = new Set(["compressor", "limiter", "truepeak", "gate", "saturate", "bitcrush", "pitchshift", "chorus", "phaser", "reverb"]);

const isRendered = (type: string): type is RenderedEffectType => Object.prototype.hasOwnProperty.call(RENDERED, type);

function numberParam(raw: unknown, spec: NumberParam): number {
  const value = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
  return Number.isFinite(value) ? Math.min(spec.max, Math.max(spec.min, value)) : spec.default;
}

/** `poles` is an enum of "1" and "2" in HyperFrames: anything else is 2. */
function polesParam(raw: unknown): number {
  return raw === "1" || raw === 1 ? 1 : 2;
}

function normalizeParams(type: RenderedEffectType, raw: unknown): Record<string, number> {
  const given = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const out: Record<string, number> = {};
  for (const [key, spec] of Object.entries(RENDERED[type])) out[key] = key === "poles" ? polesParam(given[key]) : numberParam(given[key], spec);
  return out;
}

const failed = (problem: string): ParsedFxChain => ({ effects: [], unsupported: [], problem });

/** Reads a data-fx-chain value; a chain HyperFrames would refuse comes back with its `problem` and no effect. */
export function parseFxChain(raw: string): ParsedFxChain {
  const read = readTreatmentList(raw, "nodes");
  if (read.problem !== null) return failed(read.problem);
  const effects: AudioEffect[] = [];
  const unsupported = new Set<string>();
  for (const [i, node] of read.list.entries()) {
    const { type, enabled, params, fromPreset, presetAmount } = (typeof node === "object" && node !== null ? node : {}) as Record<string, unknown>;
    if (typeof type !== "string" || (!isRendered(type) && !NOT_RENDERED.has(type))) return failed(`node ${i} has an unknown effect type: ${String(type)}`);
    if (enabled === false) continue;
    // A preset's nodes are blended with the dry sound by its amount (1 when absent): only the full amount is rendered.
    const partial = typeof fromPreset === "string" && fromPreset !== "" && typeof presetAmount === "number" && presetAmount < 1;
    if (partial) unsupported.add("a preset's partial amount (presetAmount below 1)");
    if (isRendered(type)) effects.push({ type, params: normalizeParams(type, params) });
    else unsupported.add(type);
  }
  if (effects.length > MAX_EFFECTS) unsupported.add(`the effects past the first ${MAX_EFFECTS}`);
  return { effects: effects.slice(0, MAX_EFFECTS), unsupported: [...unsupported], problem: null };
}
