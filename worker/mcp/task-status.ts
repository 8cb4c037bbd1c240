// A render, batch or snapshot as an MCP task (2025-11-25 tasks): its status, a one-line statusMessage ("frame 40 of
// 120"), and how soon to ask again. Pure: the state comes from the REST API, the time is passed in.
//
// A render's ttl is null (kept until deleted): its history row stays for good (worker/ops/prune.ts prunes only the
// queue's job rows), so its task answers as long as the render does; a deleted file leaves the task completed
// without a download. A snapshot is one of those job rows: its ttl is the queue's retention.
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import type { BatchState, RenderState } from "../../core/protocol/render-state.ts";
import type { SnapshotJob } from "../checks/shapes.ts";
import { taskIdOf, type Refusal } from "./task-id.ts";

/** Bounds of the poll interval: at most one read a second, at least one every half minute. */
export const POLL_MIN_MS = 1000;
export const POLL_MAX_MS = 30_000;
/** When nothing says how long is left (no render finished yet, a node has not reported). */
export const POLL_DEFAULT_MS = 2000;
/** Ask about five times over the time left: often enough to see it end, seldom enough for a long render. */
const READS_OVER_TIME_LEFT = 5;

const iso = (ms: number) => new Date(ms).toISOString();

function taskStatus(status: RenderState["status"]): Task["status"] {
  if (status === "done") return "completed";
  if (status === "failed" || status === "cancelled") return status;
  return "working";
}

/**
 * Seconds until the render ends, as well as they are known: the queue's estimate of when a node takes it, else the
 * node's own ETA, else the frames left at the rate so far (frames done over the time since it started); null when
 * none of these is known yet.
 */
export function secondsLeft(state: RenderState, now: number): number | null {
  if (state.status === "queued") return state.queue?.etaSeconds ?? null;
  const progress = state.progress;
  if (!progress) return null;
  if (progress.etaSeconds !== null) return progress.etaSeconds;
  const elapsed = (now - state.startedAt) / 1000;
  const rate = progress.fps ?? (progress.frame > 0 && elapsed > 0 ? progress.frame / elapsed : null);
  return rate ? (progress.total - progress.frame) / rate : null;
}

/** How long a client should wait before its next tasks/get, following the time left. */
export function pollIntervalFor(left: number | null): number {
  if (left === null) return POLL_DEFAULT_MS;
  return Math.round(Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, (left * 1000) / READS_OVER_TIME_LEFT)));
}

/** A render's state in one line: its place in the queue, the frame it is on, or how it ended. */
export function renderStatusMessage(state: RenderState): string {
  if (state.status === "queued") {
    const place = state.queue;
    if (!place) return "queued";
    return `queued: place ${place.position} in the queue${place.etaSeconds === null ? "" : `, a node should take it in about ${place.etaSeconds} s`}`;
  }
  if (state.status === "rendering") return state.progress ? `frame ${state.progress.frame} of ${state.progress.total} (${state.progress.stage})` : state.lastLine || "rendering";
  if (state.status === "failed") return `failed: ${state.error ?? state.lastLine}`;
  if (state.status === "cancelled") return "cancelled";
  return state.downloadUrl ? `done: ${state.size ?? 0} bytes` : "done: its file was deleted";
}

export function renderTask(state: RenderState, now: number): Task {
  const ended = state.doneAt !== null;
  return {
    taskId: taskIdOf({ kind: "render", renderId: state.id }),
    status: taskStatus(state.status),
    statusMessage: renderStatusMessage(state),
    createdAt: iso(state.startedAt),
    lastUpdatedAt: iso(state.doneAt ?? now),
    ttl: null,
    ...(ended ? {} : { pollInterval: pollIntervalFor(secondsLeft(state, now)) }),
  };
}

/** A batch as a task: working until every row has ended; the rows done so far, and the running row's place. */
export function batchTask(state: BatchState, now: number): Task {
  const done = state.rows.filter((r) => r.status === "done").length;
  const running = state.rows.find((r) => r.status === "queued" || r.status === "rendering");
  const summary = `${done} of ${state.rows.length} rows done${running ? `, row ${running.index} ${running.status}` : ""}`;
  return {
    taskId: taskIdOf({ kind: "batch", slug: state.slug, batchId: state.id }),
    status: taskStatus(state.status),
    statusMessage: state.status === "queued" || state.status === "rendering" ? summary : `${state.status}: ${summary}`,
    createdAt: iso(state.createdAt),
    lastUpdatedAt: iso(state.doneAt ?? now),
    ttl: null,
    ...(state.doneAt === null ? { pollInterval: POLL_DEFAULT_MS } : {}),
  };
}

/** A snapshot job as a task: what the render node is doing (its stage), then how it ended. */
export function snapshotTask(job: SnapshotJob, slug: string, ttlMs: number, now: number): Task {
  const working = job.status === "queued" || job.status === "running";
  const statusMessage =
    job.status === "queued"
      ? "queued: waiting for a render node"
      : job.status === "running"
        ? `running: ${job.stage ?? "started"}`
        : job.status === "done"
          ? `done: ${job.snapshots.length} snapshots`
          : `${job.status}: ${job.error ?? "no reason given"}`;
  return {
    taskId: taskIdOf({ kind: "snapshot", slug, jobId: job.id }),
    status: job.status === "queued" || job.status === "running" ? "working" : job.status === "done" ? "completed" : job.status,
    statusMessage,
    createdAt: job.createdAt,
    lastUpdatedAt: job.finishedAt ?? iso(now),
    ttl: ttlMs,
    ...(working ? { pollInterval: POLL_DEFAULT_MS } : {}),
  };
}

/** A call the REST API refused: failed from the start, its message the REST error's. */
export function refusedTask(refusal: Refusal): Task {
  return {
    taskId: taskIdOf({ kind: "refused", refusal }),
    status: "failed",
    statusMessage: `refused: ${String(refusal.body.error)}`,
    createdAt: iso(refusal.at),
    lastUpdatedAt: iso(refusal.at),
    ttl: null,
  };
}
