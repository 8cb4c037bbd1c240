// What a ProjectRoom keeps about a render (RoomRender), and the one function that makes its public state, whose shape
// is the contract in core/protocol/render-state.ts (GET/POST .../render, GET /api/renders/:id, project summaries,
// the event streams, webhooks).
import type { ProgressEvent, RenderProgress } from "../../core/protocol/progress.ts";
import type { RenderPlan } from "../../core/protocol/render-plan.ts";
import type { RenderQueuePlace, RenderState, RenderStatus } from "../../core/protocol/render-state.ts";
import { renderFilename, type RenderOptions } from "../../core/render/render-options.ts";

export type Progress = RenderProgress;

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

/** What a ProjectRoom keeps about its current (or last) render. */
export interface RoomRender {
  id: string;
  userId: string;
  slug: string;
  status: RenderStatus;
  startedAt: number;
  doneAt: number | null;
  filename: string;
  options: RenderOptions;
  lastLine: string;
  progress: Progress | null;
  error: string | null;
  size: number | null;
  /** When the user deleted the rendered file (DELETE /renders/<filename>); from then on it offers no download. */
  deletedAt?: number | null;
  /** False from an ended render's decision until its D1 rows are written (the alarm retries); no download meanwhile. */
  synced?: boolean;
  /** Failed tries of those writes so far (the alarm backs off and stops after a bound). */
  syncTries?: number;
  /** The node (key name/process id) that holds the render's job now, for log lines. */
  node?: string;
  /** Which try of the render's job runs now (1, or more after a node lost its lease). */
  attempt?: number;
  /** How often the job was given to another node after a lost lease. */
  retries?: number;
  /** What the planning node learnt (frames, rate, size, audio). */
  plan?: RenderPlan | null;
  /** Set when the render was split across nodes; null while whole. */
  segments?: RoomSegment[] | null;
  /** When a node took the render's current attempt; null (or absent) while it waits in the queue. */
  runningSince?: number | null;
  /** Running time of its earlier attempts (ms): with the current one, what MAX_RENDER_MS bounds. */
  ranMs?: number;
  /** While queued: its place in the queue, as the watchdog last read it. */
  queue?: RenderQueuePlace | null;
}

/** A download is offered exactly while the file is in GET /api/renders: done, written to D1, and not deleted. */
export function isDownloadable(r: Pick<RoomRender, "status" | "deletedAt" | "synced">): boolean {
  return r.status === "done" && !r.deletedAt && r.synced !== false;
}

export function publicRenderState(r: RoomRender): RenderState {
  const downloadable = isDownloadable(r);
  return {
    id: r.id,
    slug: r.slug,
    status: r.status,
    startedAt: r.startedAt,
    doneAt: r.doneAt,
    filename: r.filename,
    downloadUrl: downloadable ? `/renders/${r.filename}` : null,
    lastLine: r.lastLine,
    eventsUrl: `/api/projects/${r.slug}/render/events`,
    format: r.options.format,
    quality: r.options.quality,
    fps: r.options.fps,
    resolution: r.options.resolution,
    composition: r.options.composition,
    progress: r.progress,
    error: r.error,
    size: r.size,
    segments: r.segments
      ? r.segments.map(({ index, fromFrame, toFrame, node, attempts, status }) => ({ index, fromFrame, toFrame, node, attempts, status }))
      : null,
    ...(r.status === "queued" && r.queue ? { queue: r.queue } : {}),
  };
}

/**
 * A render as it is asked for, before its room admits it: queued now, with a fresh id and a file named after
 * `fileStem` (the slug; a batch row's adds its label). The render POST and each batch row start from it.
 */
export function queuedRender(owner: { userId: string; slug: string }, options: RenderOptions, fileStem = owner.slug): RoomRender {
  const startedAt = Date.now();
  return {
    id: crypto.randomUUID(),
    userId: owner.userId,
    slug: owner.slug,
    status: "queued",
    startedAt,
    doneAt: null,
    filename: renderFilename(fileStem, options.format, new Date(startedAt)),
    options,
    lastLine: "",
    progress: null,
    error: null,
    size: null,
  };
}
