// The render state machine of a ProjectRoom, as pure transitions: each takes the room's render and what happened,
// and returns the render that follows (a new object; the input is left as it was) with the log line that says so.
// No storage, no D1, no streams: project-room.ts applies them and does the telling and writing, so every rule of a
// render's life is here, tested on plain values (test/worker/render-transitions.test.ts).
//   queued ──node takes it──▶ rendering ──complete──▶ done | failed
//     ▲                          │ lease lost: queued again, up to the attempt limit, then failed
//     └──────────────────────────┘ any state in progress ──cancel──▶ cancelled; rendering ──wall clock──▶ failed
// A split render stays `rendering` while its segments (each queued ▶ rendering ▶ done) and then the join run.
import { sumProgress, toRenderProgress, type ProgressEvent } from "../../../core/protocol/progress.ts";
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";
import { isInProgress, type RenderQueuePlace } from "../../../core/protocol/render-state.ts";
import type { Progress, RoomRender, RoomSegment } from "../state.ts";

export type Outcome = { ok: true; size: number } | { ok: false; error: string } | { cancelled: true; reason: string };

/** `render` is the room's render `renderId` and still in progress: the only one a node's report may change. */
export function isLive(render: RoomRender | null, renderId: string): render is RoomRender {
  return render !== null && render.id === renderId && isInProgress(render.status);
}

const copy = (render: RoomRender): RoomRender => ({ ...render, segments: render.segments?.map((s) => ({ ...s })) ?? render.segments });

/** New log lines (the last becomes the last line) and, when given, new progress. */
export function withLines(render: RoomRender, lines: readonly string[], progress?: Progress | null): RoomRender {
  const next = copy(render);
  const last = lines.at(-1);
  if (last !== undefined) next.lastLine = last;
  if (progress !== undefined) next.progress = progress;
  return next;
}

/** A node took the render's job: attempt 1, or a later one after a lost lease. Null unless the render was queued.
 * Its running time starts now (the wall-clock bound counts from here, not from the POST). */
export function taken(render: RoomRender, nodeName: string, attempt: number, maxAttempts: number, now = Date.now()): { render: RoomRender; line: string } | null {
  if (render.status !== "queued") return null;
  const line = attempt === 1
    ? `render node ${nodeName} started the render`
    : `render node ${nodeName} took the render over (attempt ${attempt} of ${maxAttempts})`;
  return { render: { ...copy(render), status: "rendering", attempt, node: nodeName, runningSince: now, queue: null }, line };
}

/**
 * When the render's wall-clock bound (`maxMs` of running time, summed over its attempts) runs out, or null while it
 * waits in the queue: waiting never fails a render. A split render runs from its planning node's claim until it
 * ends (its segments waiting for nodes count: the render is running).
 */
export function runningDeadline(render: RoomRender, maxMs: number): number | null {
  if (render.runningSince === null || render.runningSince === undefined) return null;
  return render.runningSince + maxMs - (render.ranMs ?? 0);
}

/** A queued render's place, as the watchdog read it: the render and the line to tell, or null when it did not move. */
export function placed(render: RoomRender, place: RenderQueuePlace): { render: RoomRender; line: string } | null {
  if (render.status !== "queued") return null;
  if (render.queue && render.queue.position === place.position && render.queue.etaSeconds === place.etaSeconds) return null;
  const eta = place.etaSeconds === null ? "" : `, a node should take it in about ${place.etaSeconds} s`;
  return { render: { ...copy(render), queue: place }, line: `queued: position ${place.position}${eta}` };
}

/** A node's progress event on one segment (or on the whole render): the render's progress, summed over segments. */
export function progressAfter(render: RoomRender, segment: number | "join" | null, event: ProgressEvent): { render: RoomRender; progress: Progress | undefined } {
  if (segment === null || !render.segments) return { render, progress: toRenderProgress(event) };
  const next = copy(render);
  const part = segment === "join" ? undefined : next.segments![segment];
  if (part) part.progress = event;
  const parts = next.segments!
    .map((s) => (s.status === "done" ? { frame: s.toFrame - s.fromFrame, total: s.toFrame - s.fromFrame, fps: null, stage: "capturing" as const, etaSeconds: 0, reused: s.progress?.reused } : s.progress))
    .filter((p): p is ProgressEvent => !!p);
  // No segment has reported frames yet: the progress shown stays as it was.
  return { render: next, progress: sumProgress(parts, render.plan?.frames ?? 0) ?? undefined };
}

/** The planning node's plan: kept; with more than one range the render goes on as segments, each queued. */
export function planned(render: RoomRender, plan: RenderPlan, ranges: readonly SegmentRange[]): RoomRender {
  const next = { ...copy(render), plan };
  if (ranges.length > 1) next.segments = ranges.map((r) => ({ ...r, node: null, attempts: 0, status: "queued" }));
  return next;
}

/** A node took a segment or the join. Null when the segment does not exist. */
export function segmentTaken(
  render: RoomRender,
  segment: number | "join",
  nodeName: string,
  attempt: number,
  maxAttempts: number,
): { render: RoomRender; line: string } | null {
  if (!render.segments) return null;
  const next = copy(render);
  next.status = "rendering";
  if (segment === "join") {
    const retry = attempt > 1 ? ` (attempt ${attempt} of ${maxAttempts})` : "";
    return { render: next, line: `join: node ${nodeName} joins the ${render.segments.length} segments${retry}` };
  }
  const part = next.segments![segment];
  if (!part) return null;
  Object.assign(part, { node: nodeName, attempts: attempt, status: "rendering" } satisfies Partial<RoomSegment>);
  const line = attempt === 1
    ? `segment ${segment}: node ${nodeName} renders frames ${part.fromFrame}-${part.toFrame - 1}`
    : `segment ${segment}: node ${nodeName} took the segment over (attempt ${attempt} of ${maxAttempts})`;
  return { render: next, line };
}

/** A segment's node reported success with its file uploaded; `allDone` when it was the last one (the join is next). */
export function segmentDone(render: RoomRender, index: number): { render: RoomRender; line: string; allDone: boolean } {
  const next = copy(render);
  const part = next.segments![index]!;
  part.status = "done";
  part.progress = null;
  const done = next.segments!.filter((s) => s.status === "done").length;
  return { render: next, line: `segment ${index}: done on node ${part.node ?? "?"} (${done} of ${next.segments!.length})`, allDone: done === next.segments!.length };
}

/** A segment failed (its node said so, or uploaded nothing): the render fails with it. */
export function segmentFailed(render: RoomRender, index: number): RoomRender {
  const next = copy(render);
  next.segments![index]!.status = "failed";
  return next;
}

/**
 * A job's node stopped renewing its lease and the job went back to the queue: a whole render is queued again, and
 * so is the segment `segment` of a split one (the join has no state of its own).
 */
export function requeued(render: RoomRender, segment?: number, now = Date.now()): RoomRender {
  const next = copy(render);
  next.retries = (render.retries ?? 0) + 1;
  if (!next.segments) {
    // Back in the queue: its running time so far is kept, and the clock stops until a node takes it again.
    next.status = "queued";
    next.ranMs = (render.ranMs ?? 0) + (render.runningSince ? now - render.runningSince : 0);
    next.runningSince = null;
  }
  const part = segment === undefined ? undefined : next.segments?.[segment];
  if (part) part.status = "queued";
  return next;
}

/**
 * The render ended. It offers no download until its D1 rows are written (`synced`), so nothing shows a downloadUrl
 * that GET /api/renders lacks.
 */
export function ended(render: RoomRender, outcome: Outcome, now: number): { render: RoomRender; line: string } {
  const line = "cancelled" in outcome ? `render cancelled: ${outcome.reason}` : outcome.ok ? `render done: ${render.filename}` : `render failed: ${outcome.error}`;
  const next: RoomRender = { ...copy(render), doneAt: now, lastLine: line, synced: false };
  next.status = "cancelled" in outcome ? "cancelled" : outcome.ok ? "done" : "failed";
  if ("ok" in outcome && outcome.ok) {
    next.size = outcome.size;
    if (next.progress) next.progress = { ...next.progress, frame: next.progress.total, percent: 100, etaSeconds: 0 };
  }
  if ("ok" in outcome && !outcome.ok) next.error = outcome.error;
  return { render: next, line };
}
