// Where each clip sits on the root timeline and what time each sub-composition's timeline shows, as HyperFrames
// 0.8.170 resolves them (its runtime's start resolver, clip visibility and render seek; measured with its CLI,
// parity corpus nested-three-levels, overlapping-scenes, outliving-children):
// - a data-start counts from the start of the nearest enclosing composition (host), not from a timed parent that is
//   not one; a host's own data-start counts from the composition around it, so starts add up through every level;
// - a host without data-start starts with the composition it sits directly in (else at 0);
// - a clip lasts data-duration, else until data-end, else (a host) as long as its timeline, else to the end;
// - a clip shows only inside its own window and the windows of all its timed ancestors;
// - a sub-composition's timeline is at the host's local time (global time minus the host's start), from 0, held at
//   its end once past it.
import { num } from "./page-globals.ts";
import type { TimelineRegistry } from "./page-globals.ts";

export interface TimeWindow {
  start: number;
  end: number;
}

/** Edges closer than this to a frame's time count as on it: starts summed through levels (0.5 + 0.4 + 0.3) are not exact. */
const EDGE = 1e-6;

function isComposition(el: Element): boolean {
  return el.hasAttribute("data-composition-id");
}

function ownStart(el: Element): number | null {
  const raw = el.getAttribute("data-start");
  if (raw === null || raw.trim() === "") return null;
  return Math.max(0, num(raw, 0));
}

/** The clock a page's clips and timelines are read against; `root` is the page's composition. */
export function makeClipClock(root: Element, timelines: () => TimelineRegistry) {
  const starts = new Map<Element, number>();

  function startOf(el: Element): number {
    if (el === root) return 0;
    const cached = starts.get(el);
    if (cached !== undefined) return cached;
    const own = ownStart(el);
    let start = 0;
    if (own === null) {
      const parent = el.parentElement;
      if (isComposition(el) && parent && isComposition(parent)) start = startOf(parent);
    } else {
      const from = isComposition(el) ? el.parentElement && el.parentElement.closest("[data-composition-id]") : el.closest("[data-composition-id]");
      start = (from ? startOf(from) : 0) + own;
    }
    starts.set(el, start);
    return start;
  }

  /** A registered timeline's length (GSAP's duration()), or null. */
  function timelineLength(id: string | null): number | null {
    const tl = id ? timelines()[id] : undefined;
    if (!tl || typeof tl.duration !== "function") return null;
    try {
      const d = Number(tl.duration());
      return Number.isFinite(d) && d > 0 ? d : null;
    } catch {
      return null;
    }
  }

  function lengthOf(el: Element, start: number): number | null {
    const duration = num(el.getAttribute("data-duration"), NaN);
    if (duration > 0) return duration;
    const end = num(el.getAttribute("data-end"), NaN);
    if (end - start > 0) return end - start;
    return isComposition(el) ? timelineLength(el.getAttribute("data-composition-id")) : null;
  }

  /** The clip's own window, from its start for its length. */
  function ownWindow(el: Element): TimeWindow {
    const start = startOf(el);
    const length = lengthOf(el, start);
    return { start, end: length === null ? Infinity : start + length };
  }

  /** Where a clip is on screen: its own window narrowed by every timed ancestor's (below the root). */
  function shownWindow(el: Element): TimeWindow {
    const w = ownWindow(el);
    for (let node = el.parentElement; node && node !== root; node = node.parentElement) {
      if (!node.hasAttribute("data-start")) continue;
      const outer = ownWindow(node);
      w.start = Math.max(w.start, outer.start);
      w.end = Math.min(w.end, outer.end);
    }
    return w;
  }

  /** Media keeps its own start (its source time counts from there) and ends with the first timed ancestor to end. */
  function mediaWindow(el: Element): TimeWindow {
    return { start: startOf(el), end: shownWindow(el).end };
  }

  /** The time a sub-composition's timeline shows at global time t: the host's local time, from 0 to its end. */
  function localTime(host: Element, id: string, t: number): number {
    const local = Math.max(0, t - startOf(host));
    const length = timelineLength(id);
    return length === null ? local : Math.min(local, length);
  }

  return { startOf, ownWindow, shownWindow, mediaWindow, localTime };
}

export type ClipClock = ReturnType<typeof makeClipClock>;

/** Whether global time t is inside the window, edges within EDGE of t counting as reached. */
export function inWindow(w: TimeWindow, t: number): boolean {
  return t >= w.start - EDGE && t < w.end - EDGE;
}
