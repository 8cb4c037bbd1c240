// The fixed segments of a render: segment k is frames [k*S, (k+1)*S) of the composition's clock, S frames being one
// second at the render's rate (also the encoders' keyframe interval). One second, not two: a render's last segments
// are shared out finer between its browsers (a 6 s render on two browsers is 3 s each, where two-second segments
// left one browser 4 s), the first live piece is ready sooner, and an edit re-renders from a nearer boundary. A segment's bounds depend only on
// the composition's clock and the rate, never on how many browsers or nodes render it, so the same segment is the
// same encode everywhere (one ffmpeg run, closed GOP, nothing carried over from the segment before). A range render
// (from/to) starts and ends mid-segment: its first and last segments are the partial ones. The render node encodes
// by it (render-node/src/capture/capture-chunks.ts); the Worker cuts a farm's split on its boundaries. Pure.

/** Frames [start, end) of the composition's clock. */
export interface FrameRange {
  start: number;
  /** Exclusive. */
  end: number;
}

/** A frame rate as a fraction (the render plan's fps). */
export interface SegmentRate {
  num: number;
  den: number;
}

/** One fixed segment of a render: its number on the composition's clock and the frames of it the render covers. */
export interface Segment {
  /** k: the segment covers frames [k*S, (k+1)*S) of the composition, cut to the render's range. */
  index: number;
  range: FrameRange;
}

/** S: the frames of a full segment at `fps` (one second, at least one frame); also the encoders' keyframe interval. */
export function segmentFrames(fps: SegmentRate): number {
  return Math.max(1, Math.round(fps.num / fps.den));
}

/** The fixed segments the composition frames [range.start, range.end) fall into, in order, each cut to the range. */
export function segmentsOf(range: FrameRange, fps: SegmentRate): Segment[] {
  const size = segmentFrames(fps);
  const segments: Segment[] = [];
  for (let index = Math.floor(range.start / size); index * size < range.end; index++) {
    const start = Math.max(range.start, index * size);
    const end = Math.min(range.end, (index + 1) * size);
    segments.push({ index, range: { start, end } });
  }
  return segments;
}

/**
 * The most fixed segments `seconds` of video can have: a segment is round(fps) frames (at least one), so at least 2/3
 * of a second (a rate just under 1.5 fps makes one-frame segments of 1/1.5 s), and a range render's cut first and last
 * segments add one.
 */
export function mostSegments(seconds: number): number {
  return Math.ceil(seconds * 1.5) + 1;
}

/**
 * The fixed-segment boundary nearest to `frame` (a composition frame): where a split between nodes cuts, so every
 * node's share is whole fixed segments (worker/renders/split-plan.ts).
 */
export function nearestSegmentStart(frame: number, fps: SegmentRate): number {
  const size = segmentFrames(fps);
  return Math.round(frame / size) * size;
}

/**
 * Whether a format's segments are shown live while the render runs (worker/renders/live/): mp4 and webm, whose
 * segments copy into a fragmented MP4 as they are. mov, gif and png-sequence are seen once the render is done.
 */
export function isLiveFormat(format: string): boolean {
  return format === "mp4" || format === "webm";
}
