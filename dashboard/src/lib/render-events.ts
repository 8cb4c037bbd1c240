// Folds the render event stream (snapshot, start, line, end) into what the render panel shows. Pure, so the
// progress bar's arithmetic is tested without a browser. Progress comes as numbers (core/protocol), never from text.
import { RenderProgressSchema } from "../../../core/protocol/progress.ts";
import { FINISHED, type RenderProgress, type RenderState } from "./types.ts";

export interface RenderView {
  state: RenderState;
  lines: string[];
  progress: RenderProgress | null;
}

export const EMPTY_RENDER: RenderView = { state: { status: "none" }, lines: [], progress: null };

const MAX_LINES = 2000;
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asProgress(value: unknown): RenderProgress | null {
  const parsed = RenderProgressSchema.safeParse(value);
  if (!parsed.success) return null;
  const { frame, total, percent, fps, etaSeconds } = parsed.data;
  return { frame, total, percent, fps: fps ?? undefined, etaSeconds: etaSeconds ?? undefined };
}

/** The render state inside an event payload: either the payload itself or its `state`/`render` field. */
export function stateOf(payload: unknown): RenderState | null {
  if (!isRecord(payload)) return null;
  const inner = isRecord(payload.state) ? payload.state : isRecord(payload.render) ? payload.render : payload;
  return typeof inner.status === "string" ? (inner as unknown as RenderState) : null;
}

function linesOf(payload: unknown, state: RenderState | null): string[] | null {
  const source = isRecord(payload) && Array.isArray(payload.lines) ? payload.lines : state?.lines;
  return Array.isArray(source) ? source.filter((l): l is string => typeof l === "string") : null;
}

/** Percent shown by the bar: 100 once done, else the latest progress, else 0. */
export function percentOf(view: RenderView): number {
  if (view.state.status === "done") return 100;
  const p = view.progress;
  if (!p) return 0;
  const percent = p.percent ?? (p.frame / p.total) * 100;
  return Math.max(0, Math.min(100, percent));
}

export function isRunning(view: RenderView): boolean {
  return !FINISHED.has(view.state.status);
}

/** Applies one event from the stream (or a polled GET …/render, as kind "snapshot"). */
export function applyRenderEvent(view: RenderView, kind: string, payload: unknown): RenderView {
  const state = stateOf(payload);
  switch (kind) {
    case "snapshot": {
      const lines = linesOf(payload, state) ?? view.lines;
      const progress = state ? asProgress(state.progress) : null;
      return { state: state ?? view.state, lines: lines.slice(-MAX_LINES), progress };
    }
    case "start": {
      const lines = linesOf(payload, state) ?? [];
      return { state: state ?? { ...view.state, status: "rendering" }, lines, progress: null };
    }
    case "line": {
      const text = isRecord(payload) ? (payload.line ?? payload.text ?? payload.message) : payload;
      const line = typeof text === "string" ? text : "";
      const progress = (isRecord(payload) && asProgress(payload.progress)) || view.progress;
      const lines = line ? [...view.lines, line].slice(-MAX_LINES) : view.lines;
      const given = isRecord(payload) && typeof payload.status === "string" ? payload.status : null;
      const status = given ?? (view.state.status === "none" ? "rendering" : view.state.status);
      return { state: { ...view.state, status, lastLine: line || view.state.lastLine }, lines, progress };
    }
    case "end": {
      const lines = linesOf(payload, state);
      const next = state ?? { ...view.state, status: isRecord(payload) && typeof payload.status === "string" ? payload.status : "done" };
      return { state: next, lines: lines && lines.length >= view.lines.length ? lines.slice(-MAX_LINES) : view.lines, progress: view.progress };
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
  const fresh: RenderView = same ? view : { state: view.state, lines: [], progress: null };
  const next = applyRenderEvent(fresh, same ? "end" : "snapshot", state);
  const news = same ? isRunning(view) : !opening || isRunning(view);
  return { view: next, follow: !same, ended: news };
}
