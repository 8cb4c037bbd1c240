// data-automation on an <audio>/<video>, as HyperFrames 0.8.170 reads it (its core's audioAutomation, read from its
// dist): JSON `{"version":1,"lanes":[{"target":"volume","points":[{"t":0,"v":0},{"t":1,"v":1,"curve":0.5}]}]}`,
// `t` in seconds from the clip's start, `v` the value there. A volume lane replaces data-volume (and any scripted
// volume) for the whole clip: its first value before its first point, its last after its last, straight lines
// between points, or the curve x^(2^(2·curve)) from a point with `curve` (-1 to 1), which HyperFrames renders as
// samples 30 times a second. A speed lane ("rate", speeds clamped to 0.1–10) replaces data-playback-rate: its points
// are returned for speed-ramp.ts, which maps the clip's time to its source's. The studio renders both; effect-parameter
// lanes ("fx.<node>.<param>", "fx.preset.<id>") and a rate lane's segments drawn through viaX/viaY are named by
// `unsupported`. Pure.
import { clampGain } from "./audio-gain.ts";
import { MAX_PLAYBACK_RATE, MIN_PLAYBACK_RATE } from "./playback-rate.ts";
import type { RatePoint } from "./speed-ramp.ts";
import type { VolumePoint } from "./volume-envelope.ts";
import { readTreatmentList } from "./read-treatment-json.ts";

export interface ParsedAutomation {
  /** The volume lane's gain over the clip (seconds from its start), or null when it has none. */
  volume: VolumePoint[] | null;
  /** The speed lane's points (sorted, speeds 0.1–10), or null when it has none: the clip plays at data-playback-rate. */
  rate: RatePoint[] | null;
  /** Lanes HyperFrames renders that the studio does not, one phrase each. */
  unsupported: string[];
  /** Why the attribute could not be read at all, as HyperFrames refuses it (then nothing is applied). */
  problem: string | null;
}

interface LanePoint {
  t: number;
  v: number;
  curve: number;
}

/** HyperFrames' most points in a lane. */
export const MAX_LANE_POINTS = 512;
/** Samples a second along a curved segment, as HyperFrames' mixer takes them. */
const CURVE_SAMPLES_PER_SECOND = 30;

function toNumber(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
  if (typeof raw === "string" && raw.trim() !== "") {
    const value = Number(raw);
    return Number.isFinite(value) ? value : null;
  }
  return null;
}

const clampRate = (v: number) => Math.min(MAX_PLAYBACK_RATE, Math.max(MIN_PLAYBACK_RATE, v));

/** The lane's readable points, values clamped (`clamp`), sorted by time, the last of equal times kept. */
function lanePoints(points: unknown[], clamp: (v: number) => number): LanePoint[] {
  const clean = points.flatMap((p): LanePoint[] => {
    const point = (typeof p === "object" && p !== null ? p : {}) as Record<string, unknown>;
    const t = toNumber(point.t);
    const v = toNumber(point.v);
    if (t === null || v === null) return [];
    const curve = toNumber(point.curve) ?? 0;
    return [{ t: Math.max(0, t), v: clamp(v), curve: Math.min(1, Math.max(-1, curve)) }];
  }).sort((a, b) => a.t - b.t);
  const out: LanePoint[] = [];
  for (const point of clean) {
    if (out.length > 0 && out[out.length - 1]!.t === point.t) out[out.length - 1] = point;
    else out.push(point);
  }
  return out.slice(0, MAX_LANE_POINTS);
}

/** The gain at `t` between points a and b (a.t <= t <= b.t). */
function between(a: LanePoint, b: LanePoint, t: number): number {
  const x = (t - a.t) / (b.t - a.t);
  const shaped = a.curve ? x ** (2 ** (2 * a.curve)) : x;
  return a.v + (b.v - a.v) * shaped;
}

/** The lane as gain points from the clip's start to `duration` (its length on the timeline, when known). */
function volumeLaneEnvelope(points: LanePoint[], duration: number | null): VolumePoint[] {
  const out: VolumePoint[] = [];
  const first = points[0]!;
  if (first.t > 0) out.push({ time: 0, volume: first.v });
  points.forEach((a, i) => {
    out.push({ time: a.t, volume: a.v });
    const b = points[i + 1];
    if (!b || !a.curve) return;
    const steps = Math.max(2, Math.ceil((b.t - a.t) * CURVE_SAMPLES_PER_SECOND));
    for (let k = 1; k < steps; k++) {
      const t = a.t + ((b.t - a.t) * k) / steps;
      out.push({ time: t, volume: between(a, b, t) });
    }
  });
  const last = points[points.length - 1]!;
  if (duration !== null && duration > last.t) out.push({ time: duration, volume: last.v });
  return out;
}

const failed = (problem: string): ParsedAutomation => ({ volume: null, rate: null, unsupported: [], problem });

/**
 * Whether a point's segment is drawn through viaX/viaY (HyperFrames' conic shape, which the studio does not draw):
 * both numbers, different once kept inside (0.001, 0.999), as HyperFrames takes them.
 */
function drawnThroughVia(p: unknown): boolean {
  const point = (typeof p === "object" && p !== null ? p : {}) as Record<string, unknown>;
  const x = toNumber(point.viaX);
  const y = toNumber(point.viaY);
  const inside = (n: number) => Math.min(0.999, Math.max(0.001, n));
  return x !== null && y !== null && Math.abs(inside(x) - inside(y)) >= 1e-6;
}

function describeTarget(target: string): string | null {
  const parts = target.split(".");
  if (parts.length === 3 && parts[0] === "fx" && parts[1] && parts[2]) return `the effect lane ${target}`;
  return null;
}

/** Reads a data-automation value for a clip `duration` seconds long on the timeline (null: to its source's end). */
export function parseAutomation(raw: string, duration: number | null): ParsedAutomation {
  const read = readTreatmentList(raw, "lanes");
  if (read.problem !== null) return failed(read.problem);
  let volume: VolumePoint[] | null = null;
  let rate: RatePoint[] | null = null;
  const unsupported = new Set<string>();
  for (const [i, entry] of read.list.entries()) {
    const lane = (typeof entry === "object" && entry !== null ? entry : {}) as { target?: unknown; points?: unknown };
    const target = typeof lane.target === "string" ? lane.target : "";
    const rendered = target === "volume" || target === "rate";
    const other = rendered ? null : describeTarget(target);
    if (!rendered && other === null) return failed(`lane ${i} has an unreadable target: ${String(lane.target)}`);
    if (!Array.isArray(lane.points)) return failed(`lane ${i} has no \`points\` array`);
    if (other !== null) {
      if (lane.points.length > 0) unsupported.add(other);
      continue;
    }
    // The first lane of each target with a readable point counts, as in HyperFrames.
    if (target === "rate") {
      const points = lanePoints(lane.points, clampRate);
      if (rate !== null || points.length === 0) continue;
      rate = points;
      if (lane.points.some(drawnThroughVia)) unsupported.add("the speed lane's curves through viaX/viaY");
      continue;
    }
    const points = lanePoints(lane.points, clampGain);
    if (volume === null && points.length > 0) volume = volumeLaneEnvelope(points, duration);
  }
  return { volume, rate, unsupported: [...unsupported], problem: null };
}
