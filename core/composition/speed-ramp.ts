// A media clip's speed ramp: the "rate" lane of data-automation (audio-automation.ts reads it), as HyperFrames
// 0.8.170 plays it (its core's speedRamp, read from its dist). The lane gives the speed (source seconds per timeline
// second, 0.1–10) at times from the clip's start: its first value before its first point, its last after its last,
// and between two points a geometric blend (speeds are on a log scale there: 0.5 to 2 passes 1 halfway), shaped by
// the earlier point's `curve` as the volume lane is (x^(2^(2·curve))). A lane replaces data-playback-rate.
//
// Where in its source the clip is, `t` seconds into it, is the speed's integral from 0 to t: HyperFrames takes it
// with the trapezoid rule on 48 cells per segment between points, straight between those cells, and at the last
// speed past the lane's end. The render's video frames and the player's seek use this map; the sound follows it in
// quarter-second slices, each time-stretched (pitch kept) to its mean speed. Pure.

/** One point of a rate lane: `t` seconds from the clip's start, speed `v` (0.1–10), `curve` shaping the segment after it. */
export interface RatePoint {
  t: number;
  v: number;
  curve: number;
}

/** HyperFrames' cells per segment between two points when it integrates the speed. */
const CELLS_PER_SEGMENT = 48;
/** HyperFrames' mixer: a ramped sound is stretched in slices this long (timeline seconds), at most this many. */
export const RAMP_SLICE_SECONDS = 0.25;
export const MAX_RAMP_SLICES = 240;

/** The speed `t` seconds into the clip (points sorted by time, at least one). */
export function rateAt(points: readonly RatePoint[], t: number): number {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (t <= first.t) return first.v;
  if (t >= last.t) return last.v;
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.t <= t) lo = mid;
    else hi = mid;
  }
  const a = points[lo]!;
  const b = points[hi]!;
  const x = (t - a.t) / (b.t - a.t);
  const shaped = a.curve ? x ** (2 ** (2 * a.curve)) : x;
  return Math.exp(Math.log(a.v) + (Math.log(b.v) - Math.log(a.v)) * shaped);
}

/** Clip time against source time (both from the clip's start), at the cells' edges. */
interface RampTable {
  times: number[];
  sources: number[];
}

const tables = new WeakMap<readonly RatePoint[], RampTable>();

function buildTable(points: readonly RatePoint[]): RampTable {
  const times = [0];
  const sources = [0];
  const add = (t: number) => {
    const before = times[times.length - 1]!;
    if (t <= before) return;
    sources.push(sources[sources.length - 1]! + ((rateAt(points, before) + rateAt(points, t)) / 2) * (t - before));
    times.push(t);
  };
  add(points[0]!.t);
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!.t;
    const b = points[i]!.t;
    for (let k = 1; k <= CELLS_PER_SEGMENT; k++) add(a + ((b - a) * k) / CELLS_PER_SEGMENT);
  }
  return { times, sources };
}

function tableOf(points: readonly RatePoint[]): RampTable {
  let table = tables.get(points);
  if (!table) tables.set(points, (table = buildTable(points)));
  return table;
}

/** `x` read off the line through the table's neighbours of `at` in `from` (ascending), mapped to `to`. */
function across(from: number[], to: number[], at: number): number {
  let lo = 0;
  let hi = from.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (from[mid]! <= at) lo = mid;
    else hi = mid;
  }
  return to[lo]! + ((to[hi]! - to[lo]!) * (at - from[lo]!)) / (from[hi]! - from[lo]!);
}

/** Source seconds played `t` seconds into the clip (both from the clip's start and its in-point). */
export function sourceSecondsAt(points: readonly RatePoint[], t: number): number {
  if (t <= 0) return t * points[0]!.v;
  const { times, sources } = tableOf(points);
  const end = times.length - 1;
  if (t >= times[end]!) return sources[end]! + (t - times[end]!) * points[points.length - 1]!.v;
  return across(times, sources, t);
}

/** The clip time at which `source` seconds of its source have played: sourceSecondsAt's inverse. */
export function clipSecondsAt(points: readonly RatePoint[], source: number): number {
  if (source <= 0) return source / points[0]!.v;
  const { times, sources } = tableOf(points);
  const end = sources.length - 1;
  if (source >= sources[end]!) return times[end]! + (source - sources[end]!) / points[points.length - 1]!.v;
  return across(sources, times, source);
}

/** One slice of a ramped sound: source seconds [from, to] played in `seconds` of the timeline. */
export interface RampSlice {
  from: number;
  to: number;
  seconds: number;
}

/**
 * The slices a ramped sound of `duration` timeline seconds is mixed in, as HyperFrames' mixer cuts it: even slices
 * of about a quarter second (at most 240), each the source between the map's values at its edges, to be stretched
 * to its length at its mean speed (to - from) / seconds.
 */
export function rampSlices(points: readonly RatePoint[], duration: number): RampSlice[] {
  const count = Math.min(MAX_RAMP_SLICES, Math.max(1, Math.ceil(duration / RAMP_SLICE_SECONDS)));
  const seconds = duration / count;
  return Array.from({ length: count }, (_, i) => ({
    from: sourceSecondsAt(points, i * seconds),
    to: sourceSecondsAt(points, (i + 1) * seconds),
    seconds,
  }));
}
