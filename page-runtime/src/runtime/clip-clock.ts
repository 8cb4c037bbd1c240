// Where each clip sits on the root timeline and what time each sub-composition's timeline shows, as HyperFrames
// 0.8.170 resolves them (its runtime's start resolver, clip visibility and render seek; measured with its CLI,
// parity corpus nested-three-levels, overlapping-scenes, outliving-children):
// - a data-start counts from the start of the nearest enclosing composition (host), not from a timed parent that is
//   not one; a host's own data-start counts from the composition around it, so starts add up through every level;
// - a host without data-start starts with the composition it sits directly in (else at 0);
// - a clip lasts data-duration, else until data-end, else (a host) as long as its timeline, else to the end;
// - a clip shows only inside its own window and the windows of all its timed ancestors;
// - a sub-composition's timeline is at the host's local time (global time minus the host's start), from 0, held at
//   its end once past it;
// - a data-start naming another clip ("intro + 2", core/composition/clip-start.ts) is that clip's start plus its
//   length plus the offset, on the root's clock (not the host's), never below 0; one that cannot be resolved (an
//   unknown id, unreadable text) starts as if it had no data-start, as HyperFrames does, with a finding; in a cycle,
//   the clip met again counts as starting at 0 (HyperFrames' answer too), also with a finding.
import { parseClipStart, referencedStart, type StartProblem } from "../../../core/composition/clip-start.ts";
import { num } from "./page-globals.ts";
import type { TimelineRegistry } from "./page-globals.ts";
import { logIgnored } from "./log-ignored.ts";

export interface TimeWindow {
  start: number;
  end: number;
}

/** Edges closer than this to a frame's time count as on it: starts summed through levels (0.5 + 0.4 + 0.3) are not exact. */
const EDGE = 1e-6;

function isComposition(el: Element): boolean {
  return el.hasAttribute("data-composition-id");
}

/** The element a start reference names: an id, else a data-composition-id. */
function referencedElement(id: string): Element | null {
  const byId = document.getElementById(id);
  if (byId) return byId;
  const hosts = document.querySelectorAll("[data-composition-id]");
  for (let i = 0; i < hosts.length; i++) if (hosts[i]!.getAttribute("data-composition-id") === id) return hosts[i]!;
  return null;
}

/** The element's duration as its media element reports it (seconds), or null. */
function mediaLength(el: Element): number | null {
  const d = (el as HTMLMediaElement).duration;
  return (el.nodeName === "AUDIO" || el.nodeName === "VIDEO") && Number.isFinite(d) && d > 0 ? d : null;
}

/**
 * The clock a page's clips and timelines are read against; `root` is the page's composition. `onProblem` hears of
 * each data-start that cannot be resolved.
 */
export function makeClipClock(root: Element, timelines: () => TimelineRegistry, onProblem: (el: Element, problem: StartProblem) => void = () => {}) {
  const starts = new Map<Element, number>();
  const resolving: Element[] = [];

  /** Where a clip without a usable data-start starts: with the composition around a host, else at 0. */
  function defaultStart(el: Element): number {
    const parent = el.parentElement;
    return isComposition(el) && parent && isComposition(parent) ? startOf(parent) : 0;
  }

  function resolveStart(el: Element): number {
    const raw = el.getAttribute("data-start");
    const parsed = parseClipStart(raw);
    if (parsed.kind === "none") return defaultStart(el);
    if (parsed.kind === "invalid") {
      onProblem(el, { id: el.id || null, kind: "invalid", raw: parsed.raw });
      return defaultStart(el);
    }
    if (parsed.kind === "absolute") {
      const from = isComposition(el) ? el.parentElement && el.parentElement.closest("[data-composition-id]") : el.closest("[data-composition-id]");
      return (from ? startOf(from) : 0) + Math.max(0, parsed.value);
    }
    const ref = referencedElement(parsed.refId);
    if (!ref) {
      onProblem(el, { id: el.id || null, kind: "unknown-reference", raw: raw!.trim() });
      return defaultStart(el);
    }
    const at = resolving.indexOf(ref);
    if (at >= 0) {
      const path = resolving.slice(at).concat(ref).map((node) => node.id || node.getAttribute("data-composition-id") || node.nodeName.toLowerCase());
      onProblem(ref, { id: path[0]!, kind: "cycle", raw: (ref.getAttribute("data-start") || "").trim(), path });
    }
    // Inside a cycle, the clip still being resolved counts as starting at 0, as HyperFrames' resolver answers.
    const refStart = at >= 0 ? 0 : startOf(ref);
    return referencedStart(refStart, lengthOf(ref, refStart) ?? mediaLength(ref), parsed.offset);
  }

  function startOf(el: Element): number {
    if (el === root) return 0;
    const cached = starts.get(el);
    if (cached !== undefined) return cached;
    // Met again while still resolving (a host whose start names a clip inside it): the default, as HyperFrames.
    if (resolving.indexOf(el) >= 0) return defaultStart(el);
    resolving.push(el);
    let start: number;
    try {
      start = resolveStart(el);
    } finally {
      resolving.pop();
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
    } catch (error) {
      // A timeline whose duration() throws has no length the runtime can use: the clip falls back to its attributes.
      logIgnored("timeline " + id + " has no readable duration", error);
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
