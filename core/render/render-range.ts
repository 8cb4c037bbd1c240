// A range render's `from` and `to` (issue 34, point 6): which part of the composition a render makes. Each is a
// time in seconds (a number, 2.5) or a frame number at the render's rate (a string, "75f"), as Remotion's
// frameRange counts frames and the API counts every other length in seconds. The render makes frames
// [from, to) of the full render at the same rate, so its frame n is the full render's frame from + n. Pure: the
// Worker validates with it (render-options.ts; the duration too where it reads it statically), the render node
// settles it against the loaded page (render-node/src/plan/settle-render.ts).
import { COMPOSITION_LIMITS } from "../composition/composition-limits.ts";

/** A point of a range as given: seconds (number) or "<frame>f". */
export type RangePoint = number | string;

/** A range as the request gives it; either end may be left out (the composition's start, its end). */
export interface RangeRequest {
  from?: RangePoint | undefined;
  to?: RangePoint | undefined;
}

const FRAME_POINT = /^(\d{1,9})f$/;
export const RANGE_POINT_RULE = `give seconds as a number from 0 to ${COMPOSITION_LIMITS.maxDurationSeconds} (2.5) or a frame number at the render's rate as a string ("75f")`;

/** The problem with one point as given, or null. */
export function rangePointProblem(value: unknown): string | null {
  const bad = `${JSON.stringify(value)}; ${RANGE_POINT_RULE}`;
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 && value <= COMPOSITION_LIMITS.maxDurationSeconds ? null : bad;
  if (typeof value === "string") return FRAME_POINT.test(value) ? null : bad;
  return bad;
}

/** Whether the point counts frames ("75f") rather than seconds. */
function isFrames(point: RangePoint): point is string {
  return typeof point === "string";
}

/**
 * The frame a point falls on at `fps` (frames per second as a fraction): a frame number is itself, seconds are
 * rounded to the nearest frame (countFrames' rule, so `to` = the duration is the composition's last frame + 1).
 */
export function pointFrame(point: RangePoint, fps: { num: number; den: number }): number {
  if (isFrames(point)) return Number(FRAME_POINT.exec(point)![1]);
  return Math.round((point * fps.num) / fps.den - 1e-9);
}

/** The problem with from and to together, before any rate is known (both in the same unit), or null. */
export function rangeOrderProblem(range: RangeRequest): string | null {
  const { from, to } = range;
  if (from === undefined || to === undefined) return null;
  if (isFrames(from) !== isFrames(to)) return `${JSON.stringify(to)}; give from and to in the same unit (both seconds or both frames such as "75f")`;
  const a = isFrames(from) ? pointFrame(from, { num: 1, den: 1 }) : from;
  const b = isFrames(to) ? pointFrame(to, { num: 1, den: 1 }) : to;
  return a < b ? null : `${JSON.stringify(to)}; must be after from (${JSON.stringify(from)})`;
}

/** A range settled at a rate: output frames [first, end) of the composition's `total`. */
export interface SettledRange {
  first: number;
  end: number;
  /** When `to` was past the composition's end (the range was cut there): what it asked, for the finding. */
  pastEnd: string | null;
}

export type RangeOutcome = ({ ok: true } & SettledRange) | { ok: false; option: "from" | "to"; error: string };

// The Worker counts at a rate as a number (29.97002997… for "30000/1001"): said to 3 decimals.
const rateText = (fps: { num: number; den: number }) => (fps.den === 1 ? `${Number(fps.num.toFixed(3))}` : `${fps.num}/${fps.den}`);
const lengthText = (total: number, fps: { num: number; den: number }) =>
  `${total} frames, ${Number(((total * fps.den) / fps.num).toFixed(3))} s at ${rateText(fps)} fps`;

/**
 * Settles the range against a composition of `total` frames at `fps`: from must start within it and the range hold
 * at least one frame; a `to` past the end is cut there (`pastEnd` says how: the node's finding).
 */
export function settleRange(range: RangeRequest, fps: { num: number; den: number }, total: number): RangeOutcome {
  const first = range.from === undefined ? 0 : pointFrame(range.from, fps);
  const asked = range.to === undefined ? total : pointFrame(range.to, fps);
  if (first >= total) {
    return { ok: false, option: "from", error: `${JSON.stringify(range.from)} is frame ${first}, at or past the composition's end (${lengthText(total, fps)})` };
  }
  if (asked <= first) {
    return { ok: false, option: "to", error: `${JSON.stringify(range.to)} is frame ${asked}, not after from's frame ${first} at ${rateText(fps)} fps: the range holds no frame` };
  }
  const pastEnd = asked > total ? `${JSON.stringify(range.to)} is frame ${asked}, past the composition's end (${lengthText(total, fps)})` : null;
  return { ok: true, first, end: Math.min(asked, total), pastEnd };
}

/**
 * What the Worker can say before any node opens the page, from the root's declared data-duration at the render's
 * rate (frames per second, possibly fractional): the range's frames, or why it is refused (a `to` past the end too:
 * the length is declared, so it is the caller's mistake, not a page that set its own length).
 */
export function declaredRange(range: RangeRequest, fps: number, durationSeconds: number): { frames: number } | { option: "from" | "to"; error: string } {
  const rate = { num: fps, den: 1 };
  const settled = settleRange(range, rate, Math.max(1, Math.round(durationSeconds * fps - 1e-9)));
  if (!settled.ok) return { option: settled.option, error: settled.error };
  if (settled.pastEnd) return { option: "to", error: settled.pastEnd };
  return { frames: settled.end - settled.first };
}

/** Whether a request asks for only part of the composition. */
export function hasRange(range: RangeRequest): boolean {
  return range.from !== undefined || range.to !== undefined;
}
