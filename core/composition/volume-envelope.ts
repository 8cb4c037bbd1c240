// A clip's gain over time (sampled from the timeline by the render node) reduced to the few points that trace it
// within a small error, then written as the ffmpeg `volume` expression that replays it, linear between points. Pure.

export interface VolumePoint {
  /** Seconds from the clip's start on the timeline. */
  time: number;
  volume: number;
}

/** Gain error allowed between the sampled curve and its straight-line trace (0.005 of unity: inaudible). */
const TOLERANCE = 0.005;
/** Most points an envelope keeps (the render plan carries them; ffmpeg evaluates a nested if() per point). */
export const MAX_ENVELOPE_POINTS = 64;

/**
 * The fewest points (first and last always kept) whose straight lines stay within TOLERANCE of every sample: each
 * span keeps the sample farthest from its chord, recursively. Past MAX_ENVELOPE_POINTS, evenly spaced ones.
 */
export function traceEnvelope(samples: VolumePoint[]): VolumePoint[] {
  if (samples.length <= 2) return samples.slice();
  const keep = new Set<number>([0, samples.length - 1]);
  const spans: [number, number][] = [[0, samples.length - 1]];
  while (spans.length > 0) {
    const [a, b] = spans.pop()!;
    const first = samples[a]!;
    const last = samples[b]!;
    let worst = -1;
    let worstError = TOLERANCE;
    for (let i = a + 1; i < b; i++) {
      const p = samples[i]!;
      const along = last.time === first.time ? 0 : (p.time - first.time) / (last.time - first.time);
      const error = Math.abs(p.volume - (first.volume + (last.volume - first.volume) * along));
      if (error > worstError) {
        worst = i;
        worstError = error;
      }
    }
    if (worst >= 0) {
      keep.add(worst);
      spans.push([a, worst], [worst, b]);
    }
  }
  const kept = [...keep].sort((x, y) => x - y).map((i) => samples[i]!);
  if (kept.length <= MAX_ENVELOPE_POINTS) return kept;
  const stride = (kept.length - 1) / (MAX_ENVELOPE_POINTS - 1);
  return Array.from({ length: MAX_ENVELOPE_POINTS }, (_, i) => kept[Math.round(i * stride)]!);
}

const num = (value: number): string => Number(value.toFixed(6)).toString();

/**
 * The ffmpeg filter that plays `points` (times from the clip's start, ascending), `t` counting from where the clip
 * starts sounding; before the first point the first gain holds, after the last the last. `shift` is added to t
 * (seconds of the clip cut off before 0 on the timeline).
 */
export function envelopeFilter(points: VolumePoint[], shift = 0): string {
  if (points.length === 0) return "volume=1";
  if (points.length === 1) return `volume=${num(points[0]!.volume)}`;
  const t = shift > 0 ? `(t+${num(shift)})` : "t";
  let expression = num(points[points.length - 1]!.volume);
  for (let i = points.length - 2; i >= 0; i--) {
    const a = points[i]!;
    const b = points[i + 1]!;
    const slope = (b.volume - a.volume) / Math.max(1e-6, b.time - a.time);
    expression = `if(lt(${t}\\,${num(b.time)})\\,${num(a.volume)}+(${num(slope)})*(${t}-${num(a.time)})\\,${expression})`;
  }
  // Before the first point: its gain (the clip's first sample is at its start, so this only covers rounding).
  expression = `if(lt(${t}\\,${num(points[0]!.time)})\\,${num(points[0]!.volume)}\\,${expression})`;
  return `volume=${expression}:eval=frame`;
}
