// Folds the render event stream (snapshot, start, line, end) into what the render panel shows. Pure, so the
// progress bar's arithmetic is tested without a browser. Each event is read with its schema from the render contract
// (core/protocol/render-state.ts): progress comes as numbers, never from text, and an event that does not fit is a
// problem the panel shows, never a guess (an `end` without a status is not "done").
import type * as z from "zod";
import { RENDER_EVENTS, type RenderEventName } from "../../../core/protocol/render-state.ts";
import { FINISHED, type RenderProgress, type RenderState } from "./types.ts";

export interface RenderView {
  state: RenderState;
  lines: string[];
  progress: RenderProgress | null;
  /** An event the page could not read: shown with the panel until the next good one. */
  problem: string | null;
}

export const EMPTY_RENDER: RenderView = { state: { status: "none" }, lines: [], progress: null, problem: null };

const MAX_LINES = 2000;

/** Percent shown by the bar: 100 once done, else the latest progress, else 0. */
export function percentOf(view: RenderView): number {
  if (view.state.status === "done") return 100;
  const p = view.progress;
  if (!p) return 0;
  return Math.max(0, Math.min(100, p.percent));
}

export function isRunning(view: RenderView): boolean {
  return !FINISHED.has(view.state.status);
}

type EventData = { [K in RenderEventName]: z.output<(typeof RENDER_EVENTS)[K]> };

/** An event's data as its schema reads it, or the problem to show. */
export function readRenderEvent<K extends RenderEventName>(kind: K, payload: unknown): { data: EventData[K] } | { problem: string } {
  const parsed = RENDER_EVENTS[kind].safeParse(payload);
  if (parsed.success) return { data: parsed.data as EventData[K] };
  return { problem: `the server sent a "${kind}" event this page cannot read (${parsed.error.issues[0]?.message ?? "unknown shape"}); reload to see the render's state` };
}

/**
 * Whether a report that render `id` runs comes after the view saw that very render end: the render's own stream
 * catching up with the project's stream, which told the end first (a render of a second or two, carried or cached).
 * A render never runs again once ended, so such a report is stale; taken as news it would end the render twice
 * (two "Render finished" toasts).
 */
function isStaleRunning(view: RenderView, state: { id?: string | undefined; status: string }): boolean {
  return !isRunning(view) && view.state.id !== undefined && state.id === view.state.id && !FINISHED.has(state.status);
}

/** Applies one event from the stream (or a polled GET …/render, as kind "snapshot"); other event names change nothing. */
export function applyRenderEvent(view: RenderView, kind: string, payload: unknown): RenderView {
  switch (kind) {
    case "snapshot": {
      const read = readRenderEvent("snapshot", payload);
      if ("problem" in read) return { ...view, problem: read.problem };
      if (read.data.status === "none") return EMPTY_RENDER;
      if (isStaleRunning(view, read.data)) return view;
      const { lines, ...state } = read.data;
      return { state, lines: lines.slice(-MAX_LINES), progress: state.progress, problem: null };
    }
    case "start": {
      const read = readRenderEvent("start", payload);
      if ("problem" in read) return { ...view, problem: read.problem };
      if (isStaleRunning(view, read.data)) return view;
      return { state: read.data, lines: [], progress: null, problem: null };
    }
    case "line": {
      const read = readRenderEvent("line", payload);
      if ("problem" in read) return { ...view, problem: read.problem };
      const { line, status, progress } = read.data;
      // A line of a render whose start this page missed: the log shows, the state waits for the next snapshot or end.
      // A line of the render the view saw end (told late by its own stream) adds to its log, never runs it again.
      const state: RenderState = view.state.status === "none" || !isRunning(view) ? view.state : { ...view.state, status, lastLine: line };
      return { state, lines: [...view.lines, line].slice(-MAX_LINES), progress: progress ?? view.progress, problem: null };
    }
    case "end": {
      const read = readRenderEvent("end", payload);
      if ("problem" in read) return { ...view, problem: read.problem };
      return { state: read.data, lines: view.lines, progress: view.progress, problem: null };
    }
    default:
      return view;
  }
}

/** What a render announced on the project's stream means for the view; `follow`: open the render's own stream (its
 * progress, or once for the log of a finished one); `ended`: it ended as news (a toast). */
export interface Announced {
  view: RenderView;
  follow: boolean;
  ended: boolean;
}

/**
 * Folds a render announced by the project's stream (first on every (re)connection, then at each start and end) or
 * answered by this page's POST into the view. A render in progress is followed; one that ends is news when the view
 * saw it running, or when it is a render the view never saw (it started and ended while the stream was down), but
 * not the last render as the page opens (`opening`). The render the view already shows, ended, is no news twice.
 */
export function applyAnnouncement(view: RenderView, state: RenderState, opening: boolean): Announced {
  const same = state.id !== undefined && state.id === view.state.id;
  if (!FINISHED.has(state.status)) {
    // A new render starts the view afresh; the one already followed is left to its own stream.
    return same ? { view, follow: true, ended: false } : { view: applyRenderEvent(view, "start", state), follow: true, ended: false };
  }
  if (state.status === "none") return { view: same || view.state.status === "none" ? view : EMPTY_RENDER, follow: false, ended: false };
  if (same && !isRunning(view)) return { view, follow: false, ended: false };
  const fresh: RenderView = same ? view : { state: view.state, lines: [], progress: null, problem: null };
  const next = applyRenderEvent(fresh, "end", state);
  const news = same ? isRunning(view) : !opening || isRunning(view);
  return { view: next, follow: !same, ended: news };
}
