// What a ProjectRoom keeps about a render (RoomRender): one state per phase of its life, a union told apart by
// `phase`, and the one function that makes its public state, whose shape is the contract in
// core/protocol/render-state.ts (GET/POST .../render, GET /api/renders/:id, project summaries, the event streams,
// webhooks). How a render goes from one phase to the next is room/render-transitions.ts.
import { livePlaylistPath } from "./live/live-paths.ts";
import { isLiveFormat } from "../../core/render/segment-plan.ts";
import type { ProgressEvent, RenderProgress } from "../../core/protocol/progress.ts";
import type { RenderPlan } from "../../core/protocol/render-plan.ts";
import type { RenderQueuePlace, RenderState, RenderStatus } from "../../core/protocol/render-state.ts";
import type { RenderActual, RenderQuote } from "../../core/protocol/render-quote.ts";
import { renderFilename, type RenderOptions } from "../../core/render/render-options.ts";
import { posterPath } from "./poster.ts";
import type { RenderCharge } from "../budgets/charge.ts";

export type Progress = RenderProgress;

/** A done render's poster image: stored beside its file (poster.ts), or why it has none. */
export type PosterOutcome = { stored: true } | { error: string };

/** What a render done whole took from the previous render it was handed (incremental re-render, carry.ts). */
export interface Carried {
  /** The previous render's id. */
  from: string;
  segments: number;
  frames: number;
  /** The render's fixed segments in all. */
  of: number;
}

/** How a render ended: done with its file's size (its poster, absent on renders from before posters; what it carried,
 * absent when it was handed no previous render), failed with why, or cancelled with why. */
export type Outcome = { ok: true; size: number; poster?: PosterOutcome; carried?: Carried } | { ok: false; error: string } | { cancelled: true; reason: string };

/** Why a done render from before posters has none. */
export const NO_POSTER_BEFORE = "rendered before renders had posters";

/** One frame range of a split render, as the room tracks it. */
export interface RoomSegment {
  index: number;
  fromFrame: number;
  toFrame: number;
  /** The node (key name/process id) that holds or held it. */
  node: string | null;
  /** Tries so far (a lost lease gives it to another node). */
  attempts: number;
  status: RenderStatus;
  progress?: ProgressEvent | null;
}

/** Job ids of a split render's work: one per segment, one for the join. */
export const segmentJobId = (renderId: string, index: number) => `${renderId}.s${index}`;
export const joinJobId = (renderId: string) => `${renderId}.join`;

/** What every phase of a render carries. */
interface RenderBase {
  id: string;
  userId: string;
  slug: string;
  /** When it was asked for (the POST, or a batch row's start). */
  startedAt: number;
  filename: string;
  options: RenderOptions;
  lastLine: string;
  progress: Progress | null;
  /** What the planning node learnt (frames, rate, size, audio); null before a node planned it. */
  plan: RenderPlan | null;
  /** How often a node lost its lease on the render's work and another node got it. */
  retries: number;
  /** Running time of its earlier attempts (ms); with the current one, what MAX_RENDER_MS bounds. */
  ranMs: number;
  /** Whether its log already says that no node picked it up (said once). */
  waitNoticed: boolean;
  /** What it was expected to cost when asked for (quote-render.ts); absent on renders stored before quotes. */
  quote?: RenderQuote;
  /** The accounts its render-seconds are charged to (worker/budgets/charge.ts); absent on renders stored before budgets. */
  charge?: RenderCharge;
  /** The render cache's key of its inputs (render-inputs.ts): a done render is reused by a later render with the same
   * key (room/render-cache.ts). Absent on renders that are not keyed: batch rows, strict renders failed at once. */
  cacheKey?: string;
}

/** Waiting for a node: its place in the queue as the watchdog last read it (null before it looked). */
export interface QueuedRender extends RenderBase {
  phase: "queued";
  status: "queued";
  queue: RenderQueuePlace | null;
}

/** Whole on one node: which node, which attempt, since when it runs. The lease is the job's row in D1, which the
 * node renews with each progress post (farm/queue.ts); the watchdog reads it. */
export interface RunningRender extends RenderBase {
  phase: "rendering";
  status: "rendering";
  node: string;
  attempt: number;
  runningSince: number;
}

/** Split across nodes: its segments (each queued, rendering, done), then the join. Runs since its planning claim. */
export interface SplitRender extends RenderBase {
  phase: "split";
  status: "rendering";
  segments: RoomSegment[];
  runningSince: number;
}

/** Ended, with its outcome. It offers its download once its D1 rows are written (`synced`). */
export interface EndedRender extends RenderBase {
  phase: "ended";
  status: "done" | "failed" | "cancelled";
  outcome: Outcome;
  doneAt: number;
  size: number | null;
  error: string | null;
  /** A split render's segments as they were when it ended; null for a render done whole. */
  segments: RoomSegment[] | null;
  /** False from the decision until its D1 rows are written (the alarm retries); no download meanwhile. */
  synced: boolean;
  /** Failed tries of those writes so far (the alarm backs off and stops after a bound). */
  syncTries: number;
  /** When the user deleted the rendered file (DELETE /renders/<filename>); from then on it offers no download. */
  deletedAt: number | null;
  /** What it actually used, beside its quote (actual-use.ts); absent when no node took it, and until its rows are written. */
  actual?: RenderActual;
  /** The id of the done render whose file it is a copy of (room/reuse-render.ts): no node rendered it. */
  reusedFrom?: string;
}

export type RoomRender = QueuedRender | RunningRender | SplitRender | EndedRender;
export type LiveRender = QueuedRender | RunningRender | SplitRender;

/** A download is offered exactly while the file is in GET /api/renders: done, written to D1, and not deleted. */
export function isDownloadable(r: RoomRender): boolean {
  return r.phase === "ended" && r.status === "done" && !r.deletedAt && r.synced;
}

/** The segments a render shows: a split render's, or an ended one's; null for a render done whole. */
export function segmentsOf(r: RoomRender): RoomSegment[] | null {
  return r.phase === "split" || r.phase === "ended" ? r.segments : null;
}

/** A done render's carried segments, as the render state shows them (absent for any other render). */
function carriedFields(r: RoomRender): Pick<RenderState, "carriedFrom" | "carriedSegments" | "carriedFrames"> {
  if (r.phase !== "ended" || !("ok" in r.outcome) || !r.outcome.ok || !r.outcome.carried) return {};
  const { from, segments, frames } = r.outcome.carried;
  return { carriedFrom: from, carriedSegments: segments, carriedFrames: frames };
}

/** A done render's poster, as it ended (null for any other render). */
function posterOf(r: RoomRender): PosterOutcome | null {
  if (r.phase !== "ended" || !("ok" in r.outcome) || !r.outcome.ok) return null;
  return r.outcome.poster ?? { error: NO_POSTER_BEFORE };
}

/**
 * A render kept whole on one node can be watched while it runs (worker/renders/live/): mp4 and webm, queued or
 * rendering. Not a split render (its segments go to the join), nor once it has ended (its file replaces the pieces).
 */
function liveOf(r: RoomRender): { liveUrl: string } | Record<string, never> {
  const watchable = (r.phase === "queued" || r.phase === "rendering") && isLiveFormat(r.options.format);
  return watchable ? { liveUrl: livePlaylistPath(r.id) } : {};
}

export function publicRenderState(r: RoomRender): RenderState {
  const segments = segmentsOf(r);
  const poster = posterOf(r);
  return {
    id: r.id,
    slug: r.slug,
    status: r.status,
    startedAt: r.startedAt,
    doneAt: r.phase === "ended" ? r.doneAt : null,
    filename: r.filename,
    downloadUrl: isDownloadable(r) ? `/renders/${r.filename}` : null,
    posterUrl: isDownloadable(r) && poster && "stored" in poster ? posterPath(r.filename) : null,
    posterError: poster && "error" in poster ? poster.error : null,
    lastLine: r.lastLine,
    eventsUrl: `/api/projects/${r.slug}/render/events`,
    format: r.options.format,
    quality: r.options.quality,
    fps: r.options.fps,
    resolution: r.options.resolution,
    composition: r.options.composition,
    ...(r.options.from !== undefined ? { from: r.options.from } : {}),
    ...(r.options.to !== undefined ? { to: r.options.to } : {}),
    progress: r.progress,
    error: r.phase === "ended" ? r.error : null,
    size: r.phase === "ended" ? r.size : null,
    segments: segments ? segments.map(({ index, fromFrame, toFrame, node, attempts, status }) => ({ index, fromFrame, toFrame, node, attempts, status })) : null,
    ...(r.phase === "queued" && r.queue ? { queue: r.queue } : {}),
    ...(r.options.metadata ? { metadata: r.options.metadata } : {}),
    ...(r.quote ? { quote: r.quote } : {}),
    ...(r.phase === "ended" && r.actual ? { actual: r.actual } : {}),
    ...liveOf(r),
    ...(r.phase === "ended" && r.reusedFrom ? { reusedFrom: r.reusedFrom } : {}),
    ...carriedFields(r),
  };
}

/**
 * A render as it is asked for, before its room admits it: queued now, with a fresh id and a file named after
 * `fileStem` (the slug; a batch row's adds its label). The render POST and each batch row start from it.
 */
export function queuedRender(owner: { userId: string; slug: string }, options: RenderOptions, fileStem = owner.slug): QueuedRender {
  const startedAt = Date.now();
  return {
    phase: "queued",
    id: crypto.randomUUID(),
    userId: owner.userId,
    slug: owner.slug,
    status: "queued",
    startedAt,
    filename: renderFilename(fileStem, options.format, new Date(startedAt)),
    options,
    lastLine: "",
    progress: null,
    plan: null,
    retries: 0,
    ranMs: 0,
    waitNoticed: false,
    queue: null,
  };
}
