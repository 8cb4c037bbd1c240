// Whether seeking a GSAP timeline from local time a to b (a < b) can change anything it drives: some tween,
// callback or nested timeline is live in between. A child live over [s, e] renders the same at a and b when both
// are before it (b < s) or both at or past its end (a >= e); any other child, and anything the walk cannot read
// (not a GSAP timeline, a repeat, a yoyo, a reversal, a callback of a timeline itself), counts as moving.
// Also: an unpaused GSAP animation outside the sought timelines runs on the browser's clock and always moves.
import type { Timeline } from "./page-globals.ts";
import { logIgnored } from "./log-ignored.ts";

interface Animation {
  startTime(): number;
  endTime(includeRepeats?: boolean): number;
  totalDuration(): number;
  timeScale(): number;
  reversed(): boolean;
  paused(): boolean;
  progress(): number;
  totalProgress(): number;
  repeat?(): number;
  yoyo?(): boolean;
  vars?: Record<string, unknown>;
  getChildren?(nested?: boolean, tweens?: boolean, timelines?: boolean): Animation[];
}

const CALLBACKS = ["onStart", "onUpdate", "onComplete", "onRepeat", "onReverseComplete", "onInterrupt"];

/** A timeline that can be walked child by child: no repeat, no yoyo, not reversed, no callbacks of its own. */
function walkable(tl: Animation): boolean {
  if (typeof tl.getChildren !== "function" || typeof tl.startTime !== "function") return false;
  if (tl.reversed() || !(tl.timeScale() > 0)) return false;
  if (typeof tl.repeat === "function" && tl.repeat() !== 0) return false;
  if (typeof tl.yoyo === "function" && tl.yoyo()) return false;
  const vars = tl.vars || {};
  return !CALLBACKS.some((name) => typeof vars[name] === "function");
}

function live(s: number, e: number, a: number, b: number): boolean {
  if (!Number.isFinite(s) || Number.isNaN(e)) return true;
  return !(b < s || a >= e);
}

// offset: where the timeline's local 0 sits in the sought timeline's time; scale: sought time per local unit.
function childrenMove(tl: Animation, offset: number, scale: number, a: number, b: number): boolean {
  const children = tl.getChildren!(false, true, true);
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    const s = offset + child.startTime() * scale;
    const e = offset + child.endTime(true) * scale;
    if (!live(s, e, a, b)) continue;
    if (!walkable(child)) return true;
    if (childrenMove(child, s, scale / child.timeScale(), a, b)) return true;
  }
  return false;
}

/** Whether seeking `timeline` from local time a to local time b can change what it drives. */
export function timelineMoves(timeline: Timeline, a: number, b: number): boolean {
  if (a === b) return false;
  const tl = timeline as unknown as Animation;
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  try {
    if (!walkable(tl)) return live(0, typeof tl.totalDuration === "function" ? tl.totalDuration() : Infinity, lo, hi);
    return childrenMove(tl, 0, 1, lo, hi);
  } catch (error) {
    // A timeline that cannot be walked may move anything: the frame is captured, never reused.
    logIgnored("a timeline cannot be walked; the frame is captured", error);
    return true;
  }
}

/** Why GSAP itself may move the picture outside the sought timelines, or null (no GSAP, or every animation still). */
export function freeGsapAnimation(gsap: unknown, sought: readonly unknown[]): string | null {
  const root = (gsap as { globalTimeline?: Animation } | undefined)?.globalTimeline;
  if (!gsap) return null;
  if (!root || typeof root.getChildren !== "function") return "GSAP's global timeline cannot be read";
  try {
    const top = root.getChildren(false, true, true);
    for (let i = 0; i < top.length; i++) {
      const child = top[i]!;
      if (sought.includes(child) || child.paused()) continue;
      if (child.totalProgress() < 1) return "a GSAP animation plays on the browser's clock";
    }
  } catch (error) {
    logIgnored("GSAP's global timeline cannot be read", error);
    return "GSAP's global timeline cannot be read";
  }
  return null;
}
