// A render's life, as one state machine of pure transitions: each takes the room's render (a phase of state.ts) and
// what happened (plain data: a node's report, what the watchdog read), and returns the render that follows (a new
// object; the input is left as it was) with the effects the room then performs, in order (render-step.ts `Step`,
// carried out by apply-step.ts): log lines to tell, the D1 row to write (renders/projection.ts, the one projector),
// jobs to queue, end or put back, an end to carry out. No storage, no D1, no streams here, so every rule of a render's
// life reads in this file and is tested on plain values (test/node/render-life.test.ts). A render split across nodes
// has its own transitions (split-transitions.ts): the split, its segments' progress, taken and done, the join.
//
//   queued ──a node takes it──▶ rendering ──its node completes──▶ ended (done | failed)
//     ▲                            │  └──plan: split──▶ split ──segments done, join done──▶ ended
//     └──lease lost (retry)────────┘       lease lost on a segment: that segment is queued again
//   lease lost on the last attempt, a segment that failed, past MAX_RENDER_MS of running time ──▶ ended (failed)
//   cancel (the user, the project deleted, the job withdrawn) ──▶ ended (cancelled), from any live phase
//
// What happens on a lost lease: `leaseLost` below. The wall-clock bound counts running time only (`runningDeadline`):
// summed over attempts, from each node's claim; a render waiting in the queue has no deadline and shows its place.
import { toRenderProgress, type ProgressEvent } from "../../../core/protocol/progress.ts";
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";
import { isInProgress, type RenderQueuePlace } from "../../../core/protocol/render-state.ts";
import { describeRenderOptions } from "../../../core/render/render-options.ts";
import type { EndedRender, LiveRender, Outcome, PosterOutcome, Carried, QueuedRender, RoomRender, RunningRender, SplitRender } from "../state.ts";
import { copySegments, telling, withAfter, withLines, type Effect, type Limits, type Step } from "./render-step.ts";
import { segmentProgressed, splitInto } from "./split-transitions.ts";

export type { Outcome };

/** A render waits this long for a node before its log says so (once). */
export const NO_NODE_NOTICE_MS = 20_000;

// ── queued ───────────────────────────────────────────────────────────────────────────────────────────────────

/** The room admitted the render (its row and job are written): its log starts. */
export function admitted(render: QueuedRender): Step<QueuedRender> {
  return telling(render, [`render queued: ${describeRenderOptions(render.options)} → ${render.filename}`]);
}

/** A queued render's place, as the watchdog read it; null when it did not move. */
export function placed(render: QueuedRender, place: RenderQueuePlace): Step<QueuedRender> | null {
  if (render.queue && render.queue.position === place.position && render.queue.etaSeconds === place.etaSeconds) return null;
  const eta = place.etaSeconds === null ? "" : `, a node should take it in about ${place.etaSeconds} s`;
  return telling({ ...render, queue: place }, [`queued: position ${place.position}${eta}`]);
}

/** A node took the render's job: attempt 1, or a later one after a lost lease. Null unless the render was queued.
 * Its running time starts now. */
export function taken(render: RoomRender, nodeName: string, attempt: number, maxAttempts: number, now: number): Step<RunningRender> | null {
  if (render.phase !== "queued") return null;
  const { queue: _queue, ...rest } = render;
  const line = attempt === 1
    ? `render node ${nodeName} started the render`
    : `render node ${nodeName} took the render over (attempt ${attempt} of ${maxAttempts})`;
  const running: RunningRender = { ...rest, phase: "rendering", status: "rendering", node: nodeName, attempt, runningSince: now };
  return telling(running, [line], [{ do: "project" }]);
}

// ── rendering ────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A node's progress post on the render, a segment or the join: its lines and its frames (on a split render,
 * split-transitions.ts `segmentProgressed`). No event: the progress stays.
 */
export function progressed(render: LiveRender, segment: number | "join" | null, lines: string[], event?: ProgressEvent): Step<LiveRender> {
  if (render.phase !== "split" || segment === null) return withLines(render, lines, event ? toRenderProgress(event) : undefined);
  return segmentProgressed(render, segment, lines, event);
}

/**
 * The planning node's plan and the room's decision (split-plan.ts): with one range the render stays whole on that
 * node; with more, the render job's work (the plan) is done and the render goes on as segments, each queued
 * (split-transitions.ts `splitInto`).
 */
export function planned(render: RunningRender, plan: RenderPlan, ranges: readonly SegmentRange[], line: string): Step<RunningRender | SplitRender> {
  if (ranges.length <= 1) return telling({ ...render, plan }, [line]);
  return splitInto(render, plan, ranges, line);
}

/** The node that holds the render's (or the join's) job reported its end; `size`: the uploaded file's, or null;
 * `poster`: its poster, stored or why not (a render is done with or without one). */
export function completed(render: LiveRender, report: { ok: true; size: number | null; poster?: PosterOutcome; carried?: Carried } | { ok: false; error?: string }): Step<LiveRender> {
  if (!report.ok) return { render, effects: [{ do: "end", outcome: { ok: false, error: report.error ?? "the render node reported a failure without a message" } }] };
  if (report.size === null) return { render, effects: [{ do: "end", outcome: { ok: false, error: "the render node reported success but uploaded no file" } }] };
  const { carried } = report;
  const end: Effect = { do: "end", outcome: { ok: true, size: report.size, ...(report.poster ? { poster: report.poster } : {}), ...(carried ? { carried } : {}) } };
  if (!carried) return { render, effects: [end] };
  return telling(render, [`carried ${carried.segments} of ${carried.of} segments from render ${carried.from} (${carried.frames} frames neither captured nor encoded)`], [end]);
}

// ── the watchdog: a lost lease, the wall clock, a withdrawn or ended job ────────────────────────────────────────

/** When the render's bound (`maxMs` of running time, summed over its attempts) runs out; null while it waits in the
 * queue: waiting never fails a render. A split render runs from its planning claim to its end. */
export function runningDeadline(render: RoomRender, maxMs: number): number | null {
  return render.phase === "rendering" || render.phase === "split" ? render.runningSince + maxMs - render.ranMs : null;
}

/** A job of the render, as the watchdog read it from the queue. */
export interface JobLook {
  id: string;
  kind: string;
  status: string;
  attempts: number;
  nodeId: string | null;
  leaseExpiresAt: number | null;
  error: string | null;
  /** The segment's index for a segment job, "join", or null for the render job. */
  segment: number | "join" | null;
}

/** What the watchdog read for one look. */
export interface WatchLook {
  now: number;
  /** A whole render: its render job (null when it is gone); a split one: its segment and join jobs that exist. */
  jobs: (JobLook | null)[];
  /** A whole render whose job is done: the size of its file, null when there is none. */
  fileSize?: number | null;
  /** A whole render whose job is done: its poster, stored or not. */
  poster?: PosterOutcome;
  /** A queued render: its place. */
  place?: RenderQueuePlace;
  /** Names of nodes by id, for a lapsed job whose holder the render does not know (the join). */
  nodeNames?: Record<string, string>;
}

/** What one look decides: a step (or none), and when to look again (null: the render ends, no more looks). */
export interface WatchDecision {
  step: Step | null;
  againAt: number | null;
}

const ending = (render: RoomRender, outcome: Outcome): WatchDecision => ({ step: { render, effects: [{ do: "end", outcome }] }, againAt: null });

export function wallClockError(maxMs: number): string {
  return `render exceeded the wall-clock limit of ${describeDuration(maxMs)}`;
}

/** "30 min", "90 s", "1.5 s": how the limit reads in the render's log. */
export function describeDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** One look of the watchdog at the live render. Every path ends the render or looks again. */
export function watched(render: LiveRender, look: WatchLook, limits: Limits): WatchDecision {
  const { now } = look;
  const deadline = runningDeadline(render, limits.maxRenderMs);
  const again = Math.min(now + limits.watchdogMs, deadline ?? Infinity);
  const withdrawn = look.jobs.some((job) => job === null || job.status === "cancelled");
  if (render.phase !== "split" && withdrawn) return ending(render, { cancelled: true, reason: "the job was withdrawn" });
  if (deadline !== null && now >= deadline) return ending(render, { ok: false, error: wallClockError(limits.maxRenderMs) });
  if (render.phase === "split" && withdrawn) return ending(render, { cancelled: true, reason: "the job was withdrawn" });
  const jobs = look.jobs.filter((job): job is JobLook => job !== null);
  if (render.phase !== "split" && (jobs[0]?.status === "done" || jobs[0]?.status === "failed")) {
    const job = jobs[0];
    const size = job.status === "done" ? look.fileSize : null;
    return ending(render, size === null || size === undefined ? { ok: false, error: job.error ?? "the render job ended without its result reaching the render" } : { ok: true, size, ...(look.poster ? { poster: look.poster } : {}) });
  }
  // One lapsed job per look: another lapsed one is the next look's (at most watchdogMs later).
  const lapsed = jobs.find((job) => job.status === "running" && (job.leaseExpiresAt ?? 0) < now);
  if (lapsed) {
    const step = leaseLost(render, lapsed, look.nodeNames ?? {}, limits, now);
    return { step, againAt: step.effects.some((e) => e.do === "end") ? null : again };
  }
  if (render.phase === "queued" && jobs[0]?.status === "queued") return { step: waiting(render, look), againAt: again };
  return { step: null, againAt: again };
}

/** A queued render nobody took yet: its place when it moved, and once past NO_NODE_NOTICE_MS that it waits. */
function waiting(render: QueuedRender, look: WatchLook): Step | null {
  const moved = look.place ? placed(render, look.place) : null;
  if (render.waitNoticed || look.now - render.startedAt <= NO_NODE_NOTICE_MS) return moved;
  const base = moved ?? { render, effects: [] };
  const noticed = telling({ ...base.render, waitNoticed: true }, ["still waiting for a render node to pick this render up"]);
  return { render: noticed.render, effects: [...base.effects, ...noticed.effects] };
}

/**
 * WHAT HAPPENS ON A LOST LEASE. The node holding `job` (the render's, a segment's or the join's) stopped renewing its
 * lease (no progress post for leaseMs). Before the last attempt (MAX_JOB_ATTEMPTS) the job goes back to the queue for
 * another node: a whole render is queued again (its running time so far kept, its clock stopped until the next
 * claim), a segment too; the join has no state of its own. Its log says which node stopped and which attempt it was.
 * On the last attempt the render fails, naming the node.
 */
export function leaseLost(render: LiveRender, job: JobLook, nodeNames: Record<string, string>, limits: Limits, now: number): Step {
  return putBack(render, job, nodeNames, limits, now, "lapsed");
}

/**
 * A node gave its job back (POST .../release: it is stopping, a SIGTERM, a deploy, a container stopped): the same
 * rule as a lost lease, at once instead of a lease later, so another node takes the job within a second or so. The
 * try counts as an attempt, as a lost lease does: a render whose every node is stopped still ends.
 */
export function givenBack(render: LiveRender, job: JobLook, nodeNames: Record<string, string>, limits: Limits, now: number): Step {
  return putBack(render, job, nodeNames, limits, now, "given back");
}

function putBack(render: LiveRender, job: JobLook, nodeNames: Record<string, string>, limits: Limits, now: number, cause: "lapsed" | "given back"): Step {
  const segment = typeof job.segment === "number" && render.phase === "split" ? render.segments[job.segment] : undefined;
  const label = segment ? `segment ${segment.index}` : job.segment === "join" ? "join" : "render";
  // The room knows who holds a whole render or a segment; for the join, the node's name comes from its key.
  const holder = segment ? segment.node : render.phase === "rendering" && job.segment === null ? render.node : null;
  const nodeName = holder ?? (job.nodeId ? nodeNames[job.nodeId] : undefined) ?? "(unknown)";
  const attempt = `attempt ${job.attempts} of ${limits.maxAttempts}`;
  const why = cause === "lapsed"
    ? `${label}: node ${nodeName} stopped renewing its lease (no progress for ${Math.round(limits.leaseMs / 1000)} s; ${attempt})`
    : `${label}: node ${nodeName} gave it back (the node is stopping; ${attempt})`;
  if (job.attempts >= limits.maxAttempts) {
    const who = label === "render" ? `render node ${nodeName}` : `${label}: node ${nodeName}`;
    const what = cause === "lapsed" ? "stopped responding" : "was stopped";
    const error = `${who} ${what} on the last attempt (${job.attempts} of ${limits.maxAttempts}); the render was given up`;
    return withAfter(telling(render, [why]), [{ do: "end", outcome: { ok: false, error } }]);
  }
  const gate: Effect = { do: "requeueJob", jobId: job.id, nodeId: job.nodeId, why, ...(cause === "given back" ? { attempt: job.attempts } : {}) };
  const kind = job.kind as "render" | "segment" | "join";
  const line = `${why}; queued again for another node`;
  // A node given back is one stopping: where nodes are containers, the queue may need another started.
  const after: Effect[] = cause === "given back" ? [{ do: "announce", kind }, { do: "wakeNodes" }] : [{ do: "announce", kind }];
  if (render.phase === "split") {
    const segments = copySegments(render.segments);
    if (segment) segments[segment.index]!.status = "queued";
    const step = telling({ ...render, segments, retries: render.retries + 1 }, [line], [gate]);
    return withAfter(step, after);
  }
  const { node: _node, attempt: _attempt, runningSince, ...rest } = render as RunningRender;
  const ranMs = render.ranMs + (render.phase === "rendering" ? now - runningSince : 0);
  const queued: QueuedRender = { ...rest, phase: "queued", status: "queued", retries: render.retries + 1, ranMs, queue: null };
  return withAfter(telling(queued, [line], [gate, { do: "project" }]), after);
}

// ── ended ────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The render ended. It offers no download until its D1 rows are written (`synced`), so nothing shows a downloadUrl
 * that GET /api/renders lacks. Segments still queued or rendering are cancelled with it.
 */
export function ended(render: LiveRender, outcome: Outcome, now: number): { render: EndedRender; line: string } {
  const line = "cancelled" in outcome ? `render cancelled: ${outcome.reason}` : outcome.ok ? `render done: ${render.filename}` : `render failed: ${outcome.error}`;
  const status = "cancelled" in outcome ? "cancelled" : outcome.ok ? "done" : "failed";
  const done = "ok" in outcome && outcome.ok;
  const progress = done && render.progress ? { ...render.progress, frame: render.progress.total, percent: 100, etaSeconds: 0 } : render.progress;
  const segments = render.phase === "split" ? render.segments.map((s) => (isInProgress(s.status) ? { ...s, status: "cancelled" as const } : { ...s })) : null;
  // An ended render's ranMs is its whole running time, this attempt's included: its actual wall seconds (actual-use.ts).
  const base = { ...endedBase(render), ranMs: render.ranMs + (render.phase === "queued" ? 0 : now - render.runningSince) };
  return {
    render: {
      ...base,
      phase: "ended",
      status,
      outcome,
      doneAt: now,
      lastLine: line,
      progress,
      size: done ? outcome.size : null,
      error: "ok" in outcome && !outcome.ok ? outcome.error : null,
      segments,
      synced: false,
      syncTries: 0,
      deletedAt: null,
    },
    line,
  };
}

/** The fields every phase shares, without those of the live phase. */
function endedBase(render: LiveRender) {
  const { id, userId, slug, startedAt, filename, options, lastLine, progress, plan, retries, ranMs, waitNoticed, quote, cacheKey } = render;
  // The cache key stays: a done render is recorded under it (render-cache.ts).
  return { id, userId, slug, startedAt, filename, options, lastLine, progress, plan, retries, ranMs, waitNoticed, ...(quote ? { quote } : {}), ...(cacheKey ? { cacheKey } : {}) };
}

/** The ended render's D1 rows are written: from now on a done render offers its download. */
export const synced = (render: EndedRender): EndedRender => ({ ...render, synced: true });

/** Another failed try of those writes. */
export const syncFailed = (render: EndedRender): EndedRender => ({ ...render, syncTries: render.syncTries + 1 });

/** The user deleted the rendered file: no download from now on. Null when it was deleted already. */
export function fileForgotten(render: EndedRender, now: number): Step<EndedRender> | null {
  if (render.deletedAt) return null;
  return { render: { ...render, deletedAt: now }, effects: [{ do: "project" }] };
}
