// One ProjectRoom per (user, project): the one owner of a render's live state. It decides every transition
// (queued, rendering, retried, done, failed, cancelled), writes the D1 history rows (renders) and ends the queue's
// work rows (jobs) from those transitions (renders/write-ended-render.ts), answers waiters (`wait`, browser jobs)
// and runs the watchdog (lost leases are retried on another node up to MAX_JOB_ATTEMPTS; the wall-clock limit).
// What it tells (the log, the numbered events, the streams) goes through its RenderFeed (render-feed.ts).
// Every alarm path ends: an ended render with its D1 rows written sets no alarm.
import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import type { CompleteRequest } from "../../core/protocol/node-routes.ts";
import { sumProgress, toRenderProgress, type ProgressEvent } from "../../core/protocol/progress.ts";
import type { RenderPlan, SegmentRange } from "../../core/protocol/render-plan.ts";
import { describeRenderOptions } from "../../core/render/render-options.ts";
import { configOf } from "../config/config-of.ts";
import { openDb } from "../db/client.ts";
import { renderNodes } from "../db/schema/renders.ts";
import type { Env } from "../env.ts";
import { renderKey } from "../files/keys.ts";
import { wakeRenderNodes } from "../containers/render-node-container.ts";
import { announceWork } from "../jobs/job-board.ts";
import { endJob, enqueueJob, findJob, findJobs, leaseMs, maxJobAttempts, requeueLapsedJob, type JobRow } from "../jobs/queue.ts";
import { segmentKey } from "../renders/segment-keys.ts";
import { splitPlan, splitThresholds } from "../renders/split-plan.ts";
import { isInProgress } from "../../core/protocol/render-state.ts";
import {
  joinJobId,
  publicRenderState,
  segmentJobId,
  type Progress,
  type PublicRenderState,
  type RoomRender,
  type RoomSegment,
} from "../renders/state.ts";
import { insertProjection, writeFileDeleted, writeProjection } from "../renders/projection.ts";
import { freeRenderFilename } from "../renders/store.ts";
import { jobIdsOf, writeEndedRender } from "../renders/write-ended-render.ts";
import { maxRenderMs, wallClockError } from "../limits/render-wall-clock.ts";
import { videoTooLong } from "../limits/video-length.ts";
import { notifyRenderEnded } from "../webhooks/notify-render-ended.ts";
import { capOf } from "../limits/work-caps.ts";
import { ChangeWaiters } from "./change-waiters.ts";
import { RenderFeed } from "./render-feed.ts";
import { logEvent } from "../http/log.ts";

const NO_NODE_NOTICE_MS = 20_000;
/** Rows still "in progress" this long past the wall-clock limit are stale (their room never ended them). */
const STALE_AFTER_LIMIT_MS = 60_000;
/** Retry delays for D1 writes of an ended render that failed (the room's decision stands; only the rows lag):
 * 1 s, doubling to at most 10 min, for at most MAX_SYNC_TRIES tries (about 2 h); then the alarm stops for good. */
const SYNC_RETRY_MS = 1000;
const MAX_SYNC_RETRY_MS = 600_000;
const MAX_SYNC_TRIES = 20;

export type RenderView = PublicRenderState & { lines: string[] };
export type Outcome = { ok: true; size: number } | { ok: false; error: string } | { cancelled: true; reason: string };
/** `atCap`: the user already has their limit of renders in progress elsewhere; nothing was started. */
export type StartResult = { started: boolean; view: RenderView } | { atCap: true };

export class ProjectRoom extends DurableObject<Env> {
  /** The log, the numbered events and the streams (render-feed.ts); the room decides, the feed tells. */
  private readonly feed: RenderFeed;
  private readonly waiters = new ChangeWaiters<RenderView>();
  /** Browser-job waiters (worker/browser/wait-for-job.ts), told when their job is claimed or ends. */
  private readonly jobWaiters = new ChangeWaiters<boolean>();
  /** Renders whose finish is under way: finish awaits D1, and a second finish meanwhile must not run. */
  private readonly finishing = new Set<string>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.feed = new RenderFeed(ctx.storage.sql);
  }

  // ── reading ────────────────────────────────────────────────────────────────────────────────────────────────

  private async current(): Promise<RoomRender | null> {
    return (await this.ctx.storage.get<RoomRender>("render")) ?? null;
  }

  private view(render: RoomRender): RenderView {
    return { ...publicRenderState(render), lines: this.feed.linesOf(render.id) };
  }

  /** The current or last render with its log, or null when this project never rendered. */
  async getRender(): Promise<RenderView | null> {
    const render = await this.current();
    return render ? this.view(render) : null;
  }

  // ── transitions ────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Starts a render unless one is in progress, in which case that one is returned unchanged (`started: false`).
   * The check and the write are storage operations, which the input gate serialises, so two POSTs racing here
   * cannot both start; only then are the D1 row and the job written. The D1 row is admitted only under the user's
   * cap on renders in progress (else `atCap`, and the room is put back as it was). `failWith` ends it at once
   * (strict lint).
   */
  async startRender(render: RoomRender, failWith?: string[]): Promise<StartResult> {
    const existing = await this.current();
    if (existing && isInProgress(existing.status)) return { started: false, view: this.view(existing) };
    await this.ctx.storage.put("render", render);
    const db = openDb(this.env.DB);
    render.filename = await freeRenderFilename(db, render.userId, render.filename);
    const staleBefore = Date.now() - maxRenderMs(this.env) - STALE_AFTER_LIMIT_MS;
    if (!(await insertProjection(db, render, capOf(this.env, "render"), staleBefore))) {
      if (existing) await this.ctx.storage.put("render", existing);
      else await this.ctx.storage.delete("render");
      return { atCap: true };
    }
    await this.ctx.storage.put("render", render);
    // The watchdog runs from the start, so even a render whose job never got queued ends.
    await this.ctx.storage.setAlarm(Date.now() + this.watchdogMs());
    this.feed.started(render.id, publicRenderState(render));
    await this.appendLines(render.id, [`render queued: ${describeRenderOptions(render.options)} → ${render.filename}`]);
    if (failWith) {
      await this.appendLines(render.id, failWith);
      await this.finish(render.id, { ok: false, error: "lint errors (strict): fix them or render without strict" });
    } else {
      await enqueueJob(db, { id: render.id, userId: render.userId, slug: render.slug, kind: "render", options: render.options });
      await announceWork(this.env, "render");
    }
    return { started: true, view: this.view((await this.current()) ?? render) };
  }

  /** Appends log lines (from the node or the Worker). Returns whether the node should stop. */
  async appendLines(renderId: string, lines: string[], progress?: Progress | null): Promise<{ cancelled: boolean }> {
    const render = await this.current();
    if (!render || render.id !== renderId || !isInProgress(render.status)) return { cancelled: true };
    return this.appendTo(render, lines, progress);
  }

  /** A node's progress post on a render, segment or join job: its lines, and its frames (summed over segments). */
  async nodeProgress(renderId: string, segment: number | "join" | null, lines: string[], event?: ProgressEvent): Promise<{ cancelled: boolean }> {
    const render = await this.current();
    if (!render || render.id !== renderId || !isInProgress(render.status)) return { cancelled: true };
    if (segment === null || !render.segments) return this.appendTo(render, lines, event && toRenderProgress(event));
    const prefix = segment === "join" ? "join" : `segment ${segment}`;
    if (event && segment !== "join") {
      const part = render.segments[segment];
      if (part) part.progress = event;
    }
    const parts = render.segments.map((s) =>
      s.status === "done" ? { frame: s.toFrame - s.fromFrame, total: s.toFrame - s.fromFrame, fps: null, stage: "capturing" as const, etaSeconds: 0 } : s.progress,
    ).filter((p): p is ProgressEvent => !!p);
    const summed = event ? sumProgress(parts, render.plan?.frames ?? 0) : undefined;
    return this.appendTo(render, lines.map((l) => `${prefix}: ${l}`), summed ?? undefined);
  }

  private async appendTo(render: RoomRender, lines: string[], progress?: Progress | null): Promise<{ cancelled: boolean }> {
    const last = lines.at(-1);
    if (last !== undefined) render.lastLine = last;
    if (progress !== undefined) render.progress = progress;
    await this.ctx.storage.put("render", render);
    this.feed.lines(render.id, lines, { status: render.status, progress: render.progress });
    return { cancelled: false };
  }

  /** A render node took the job (`attempt` 1, or a later one after a lost lease). */
  async markRendering(renderId: string, nodeName: string, attempt = 1): Promise<void> {
    const render = await this.current();
    if (!render || render.id !== renderId || render.status !== "queued") return;
    render.status = "rendering";
    render.attempt = attempt;
    render.node = nodeName;
    await this.ctx.storage.put("render", render);
    await writeProjection(openDb(this.env.DB), render);
    const line = attempt === 1
      ? `render node ${nodeName} started the render`
      : `render node ${nodeName} took the render over (attempt ${attempt} of ${maxJobAttempts(this.env)})`;
    await this.appendLines(renderId, [line]);
  }

  /**
   * POST /api/node/jobs/:id/complete of a render job, from the node that holds it. The room decides the outcome
   * (a success with no uploaded file is a failure) and ends the render, which ends the job: the job is never ended
   * first, so a completion that breaks halfway leaves a decision the alarm finishes writing, never a lost one.
   */
  async complete(jobId: string, nodeId: string, body: CompleteRequest): Promise<{ ok: boolean; error?: string }> {
    const render = await this.current();
    const ours = render && (render.id === jobId || joinJobId(render.id) === jobId);
    if (!render || !ours || !isInProgress(render.status)) return { ok: true };
    const job = await findJob(openDb(this.env.DB), jobId);
    if (!job || job.nodeId !== nodeId || job.status !== "running") return { ok: false, error: "this node no longer holds the job" };
    if (!body.ok) {
      await this.finish(render.id, { ok: false, error: body.error ?? "the render node reported a failure without a message" });
      return { ok: true };
    }
    const object = await this.env.FILES.head(renderKey(render.userId, render.filename));
    if (!object) {
      const error = "the render node reported success but uploaded no file";
      await this.finish(render.id, { ok: false, error });
      return { ok: false, error };
    }
    await this.finish(render.id, { ok: true, size: object.size });
    return { ok: true };
  }

  // ── split renders ──────────────────────────────────────────────────────────────────────────────────────────

  /**
   * POST /api/node/jobs/:id/plan: the node that holds the render job loaded the composition. A short render (or a
   * GIF) stays whole on that node; a longer one is split: the render job ends here and one segment job per frame
   * range is queued for any nodes. A plan longer than MAX_VIDEO_SECONDS fails the render and queues nothing.
   */
  async plan(renderId: string, nodeId: string, plan: RenderPlan): Promise<{ segments: SegmentRange[]; cancelled: boolean }> {
    const render = await this.current();
    if (!render || render.id !== renderId || !isInProgress(render.status)) return { segments: [], cancelled: true };
    const db = openDb(this.env.DB);
    const job = await findJob(db, renderId);
    if (!job || job.nodeId !== nodeId || job.status !== "running") return { segments: [], cancelled: true };
    const tooLong = videoTooLong(this.env, plan);
    if (tooLong) {
      await this.finish(renderId, { ok: false, error: tooLong });
      return { segments: [], cancelled: true };
    }
    const ranges = splitPlan(plan.frames, render.options.format, splitThresholds(configOf(this.env), plan));
    render.plan = plan;
    if (ranges.length === 1) {
      await this.ctx.storage.put("render", render);
      return { segments: ranges, cancelled: false };
    }
    render.segments = ranges.map((r) => ({ ...r, node: null, attempts: 0, status: "queued" }));
    await this.ctx.storage.put("render", render);
    // The render job's work (the plan) is done; the render goes on as segments.
    await endJob(db, renderId, "done", { result: { segments: ranges.length } });
    for (const r of ranges) {
      const options = { renderId, index: r.index, fromFrame: r.fromFrame, toFrame: r.toFrame, plan, render: render.options };
      await enqueueJob(db, { id: segmentJobId(renderId, r.index), userId: render.userId, slug: render.slug, kind: "segment", options });
    }
    const size = Math.round(plan.frames / ranges.length);
    await this.appendTo(render, [`render split into ${ranges.length} segments of about ${size} frames (${plan.frames} frames at ${plan.fpsText} fps) for any nodes`]);
    await announceWork(this.env, "segment");
    // In production more container nodes start for the segments (their number follows the queue's depth).
    await wakeRenderNodes(this.env).catch(() => undefined);
    return { segments: ranges, cancelled: false };
  }

  /** A node took a segment or the join (`attempt` 1, or later after a lost lease). */
  async markSegment(renderId: string, segment: number | "join", nodeName: string, attempt: number): Promise<void> {
    const render = await this.current();
    if (!render || render.id !== renderId || !isInProgress(render.status) || !render.segments) return;
    const max = maxJobAttempts(this.env);
    let line: string;
    if (segment === "join") {
      line = `join: node ${nodeName} joins the ${render.segments.length} segments${attempt > 1 ? ` (attempt ${attempt} of ${max})` : ""}`;
    } else {
      const part = render.segments[segment];
      if (!part) return;
      Object.assign(part, { node: nodeName, attempts: attempt, status: "rendering" } satisfies Partial<RoomSegment>);
      line = attempt === 1
        ? `segment ${segment}: node ${nodeName} renders frames ${part.fromFrame}-${part.toFrame - 1}`
        : `segment ${segment}: node ${nodeName} took the segment over (attempt ${attempt} of ${max})`;
    }
    if (render.status === "queued") {
      render.status = "rendering";
      await writeProjection(openDb(this.env.DB), render);
    }
    await this.ctx.storage.put("render", render);
    await this.appendTo(render, [line]);
  }

  /** POST /api/node/jobs/:id/complete of a segment job. The last segment done queues the join. */
  async completeSegment(renderId: string, index: number, nodeId: string, body: CompleteRequest): Promise<{ ok: boolean; error?: string }> {
    const render = await this.current();
    if (!render || render.id !== renderId || !isInProgress(render.status) || !render.segments?.[index]) return { ok: true };
    const db = openDb(this.env.DB);
    const jobId = segmentJobId(renderId, index);
    const job = await findJob(db, jobId);
    if (!job || job.nodeId !== nodeId || job.status !== "running") return { ok: false, error: "this node no longer holds the job" };
    const part = render.segments[index]!;
    if (!body.ok) {
      part.status = "failed";
      await this.finish(renderId, { ok: false, error: `segment ${index} failed on node ${part.node ?? "?"}: ${body.error ?? "no message"}` });
      return { ok: true };
    }
    if (!(await this.env.FILES.head(segmentKey(render.userId, renderId, index)))) {
      const error = `segment ${index}: the render node reported success but uploaded no file`;
      part.status = "failed";
      await this.finish(renderId, { ok: false, error });
      return { ok: false, error };
    }
    part.status = "done";
    part.progress = null;
    await this.ctx.storage.put("render", render);
    await endJob(db, jobId, "done");
    const done = render.segments.filter((s) => s.status === "done").length;
    await this.appendTo(render, [`segment ${index}: done on node ${part.node ?? "?"} (${done} of ${render.segments.length})`]);
    if (done === render.segments.length) {
      const options = { renderId, segments: render.segments.map((s) => s.index), plan: render.plan, render: render.options };
      await enqueueJob(db, { id: joinJobId(renderId), userId: render.userId, slug: render.slug, kind: "join", options });
      await this.appendTo(render, ["all segments done; queued the join"]);
      await announceWork(this.env, "join");
    }
    return { ok: true };
  }

  /** The render ended: done (with the file's size), failed (with why), or cancelled. */
  async finish(renderId: string, outcome: Outcome): Promise<RenderView | null> {
    const render = await this.current();
    if (!render || render.id !== renderId || !isInProgress(render.status) || this.finishing.has(renderId)) {
      return render ? this.view(render) : null;
    }
    this.finishing.add(renderId);
    try {
      return await this.finishNow(render, outcome);
    } finally {
      this.finishing.delete(renderId);
    }
  }

  private async finishNow(render: RoomRender, outcome: Outcome): Promise<RenderView> {
    const renderId = render.id;
    const now = Date.now();
    const line =
      "cancelled" in outcome ? `render cancelled: ${outcome.reason}` : outcome.ok ? `render done: ${render.filename}` : `render failed: ${outcome.error}`;
    await this.appendLines(renderId, [line]);
    render.status = "cancelled" in outcome ? "cancelled" : outcome.ok ? "done" : "failed";
    render.doneAt = now;
    render.lastLine = line;
    if ("ok" in outcome && outcome.ok) {
      render.size = outcome.size;
      if (render.progress) render.progress = { ...render.progress, frame: render.progress.total, percent: 100, etaSeconds: 0 };
    }
    if ("ok" in outcome && !outcome.ok) render.error = outcome.error;
    // The decision is stored before any D1 write; until those are written (synced) the render offers no download,
    // so nothing shows a downloadUrl that GET /api/renders lacks.
    render.synced = false;
    await this.ctx.storage.put("render", render);
    await this.ctx.storage.deleteAlarm();
    try {
      await this.syncEnded(render);
    } catch (error) {
      // The decision stands; the alarm writes the rows (the render offers no download until then).
      logEvent("error", "render.end_write_failed", { renderId, retry: "alarm", error });
      await this.ctx.storage.setAlarm(Date.now() + SYNC_RETRY_MS);
    }
    const view = this.view(render);
    this.feed.ended(publicRenderState(render));
    this.waiters.notify(renderId, view);
    await notifyRenderEnded(this.env, render);
    return view;
  }

  /** Writes an ended render's D1 rows (write-ended-render.ts), then marks it synced. Idempotent. */
  private async syncEnded(render: RoomRender): Promise<void> {
    await writeEndedRender(this.env, render);
    render.synced = true;
    await this.ctx.storage.put("render", render);
  }

  /** DELETE .../render: `{ stopped }` is true when a render was in progress and is now cancelled. */
  async cancel(reason = "cancelled by the user"): Promise<{ stopped: boolean }> {
    const render = await this.current();
    if (!render || !isInProgress(render.status)) return { stopped: false };
    await this.finish(render.id, { cancelled: true, reason });
    return { stopped: true };
  }

  /**
   * DELETE /renders/<filename>: from now on the render offers no download. The room's latest render changes here
   * first (so no state it shows offers a file that is going away), then its row; an older render's row directly.
   */
  async forgetFile(renderId: string, filename: string): Promise<void> {
    const db = openDb(this.env.DB);
    const render = await this.current();
    if (render && render.id === renderId && render.filename === filename) {
      if (render.deletedAt) return;
      render.deletedAt = Date.now();
      await this.ctx.storage.put("render", render);
      await writeProjection(db, render);
      return;
    }
    await writeFileDeleted(db, renderId, Date.now());
  }

  /** Holds until the render ends, then returns it with its full log. */
  async waitForEnd(renderId: string): Promise<RenderView | null> {
    const render = await this.current();
    if (!render || render.id !== renderId) return null;
    if (!isInProgress(render.status)) return this.view(render);
    return this.waiters.wait(renderId);
  }

  // ── browser jobs (snapshot, check) ────────────────────────────────────────────────────────────────────────────

  /** Resolves true when the job is claimed or ends (jobChanged), false after `timeoutMs`. */
  async awaitJobChange(jobId: string, timeoutMs: number): Promise<boolean> {
    return this.jobWaiters.wait(jobId, timeoutMs, false);
  }

  async jobChanged(jobId: string): Promise<void> {
    this.jobWaiters.notify(jobId, true);
  }

  /** Before the project is deleted: stop the render, end the streams, forget the log. */
  async stopAll(): Promise<{ stopped: boolean }> {
    const result = await this.cancel("the project was deleted");
    this.feed.closeAll();
    await this.ctx.storage.deleteAll();
    this.feed.reset();
    return result;
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * GET .../render/events (resumable, see render-feed.ts), forwarded by the Worker with the snapshot payload for a
   * room that never rendered (`none`); GET /api/projects/:slug/events as /project-events.
   */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/project-events") {
      const render = await this.current();
      return this.feed.subscribeProject(request, render ? publicRenderState(render) : { status: "none" });
    }
    return this.feed.subscribe(request, async () => {
      const render = await this.current();
      return render ? this.view(render) : JSON.parse(url.searchParams.get("none") ?? '{"status":"none","recent":[]}');
    });
  }

  /** A file was written or deleted (worker/files/announce-files.ts): tell the project's open pages. */
  async filesChanged(change: { written?: string[]; deleted?: string[] }): Promise<void> {
    this.feed.filesChanged(change);
  }

  // ── watchdog ───────────────────────────────────────────────────────────────────────────────────────────────

  private watchdogMs(): number {
    return Math.min(5000, leaseMs(this.env));
  }

  /**
   * The watchdog. An ended render whose D1 rows are not yet written gets them written (then no alarm). A node that
   * stops renewing its lease loses the job to another node, up to MAX_JOB_ATTEMPTS tries, then the render fails
   * with a line naming the node and why; a job that ended without its completion reaching the room ends the
   * render; past the wall-clock limit the render fails. Every path either ends the render or re-arms while it is
   * in progress.
   */
  async alarm(): Promise<void> {
    const render = await this.current();
    if (!render) return;
    if (!isInProgress(render.status)) {
      if (render.synced === false) {
        try {
          await this.syncEnded(render);
        } catch (error) {
          render.syncTries = (render.syncTries ?? 0) + 1;
          await this.ctx.storage.put("render", render);
          if (render.syncTries < MAX_SYNC_TRIES) {
            await this.ctx.storage.setAlarm(Date.now() + Math.min(MAX_SYNC_RETRY_MS, SYNC_RETRY_MS * 2 ** render.syncTries));
          } else {
            logEvent("error", "render.end_write_abandoned", { renderId: render.id, tries: render.syncTries, error });
          }
        }
      }
      return;
    }
    const db = openDb(this.env.DB);
    const now = Date.now();
    if (render.segments) {
      await this.watchSegments(render, now);
      return;
    }
    const job = await findJob(db, render.id);
    if (!job || job.status === "cancelled") {
      await this.finish(render.id, { cancelled: true, reason: "the job was withdrawn" });
      return;
    }
    const deadline = render.startedAt + maxRenderMs(this.env);
    if (now >= deadline) {
      await this.finish(render.id, { ok: false, error: wallClockError(this.env) });
      return;
    }
    if (job.status === "done" || job.status === "failed") {
      await this.finish(render.id, await this.outcomeOfEndedJob(render, job));
      return;
    }
    if (job.status === "running" && (job.leaseExpiresAt ?? 0) < now) {
      if (await this.retryOrFail(render, job)) return;
    }
    if (job.status === "queued" && now - render.startedAt > NO_NODE_NOTICE_MS && !(await this.ctx.storage.get(`noticed:${render.id}`))) {
      await this.ctx.storage.put(`noticed:${render.id}`, true);
      await this.appendLines(render.id, ["still waiting for a render node to pick this render up"]);
    }
    await this.ctx.storage.setAlarm(Math.min(now + this.watchdogMs(), deadline));
  }

  /** The watchdog of a split render: the wall-clock limit, and a lost lease on any of its segments or the join. */
  private async watchSegments(render: RoomRender, now: number): Promise<void> {
    const deadline = render.startedAt + maxRenderMs(this.env);
    if (now >= deadline) {
      await this.finish(render.id, { ok: false, error: wallClockError(this.env) });
      return;
    }
    const jobs = await findJobs(openDb(this.env.DB), jobIdsOf(render).slice(1));
    for (const job of jobs) {
      if (job.status === "cancelled") {
        await this.finish(render.id, { cancelled: true, reason: "the job was withdrawn" });
        return;
      }
      if (job.status !== "running" || (job.leaseExpiresAt ?? 0) >= now) continue;
      const options = JSON.parse(job.options) as { index?: number };
      const part = job.kind === "segment" && options.index !== undefined ? render.segments?.[options.index] : undefined;
      const label = part ? `segment ${part.index}` : "join";
      if (await this.retryOrFail(render, job, label, part?.node ?? undefined)) return;
      if (part && (await findJob(openDb(this.env.DB), job.id))?.status === "queued") {
        part.status = "queued";
        await this.ctx.storage.put("render", render);
      }
    }
    await this.ctx.storage.setAlarm(Math.min(now + this.watchdogMs(), deadline));
  }

  /** A job ended in the queue without its completion reaching the room (an older Worker, a manual fix). */
  private async outcomeOfEndedJob(render: RoomRender, job: JobRow): Promise<Outcome> {
    if (job.status === "done") {
      const object = await this.env.FILES.head(renderKey(render.userId, render.filename));
      if (object) return { ok: true, size: object.size };
    }
    return { ok: false, error: job.error ?? "the render job ended without its result reaching the render" };
  }

  /**
   * The job's node stopped renewing its lease: put the job back for another node (the render is queued again) or,
   * after the last attempt, fail the render. Returns true when the render ended.
   */
  private async retryOrFail(render: RoomRender, job: JobRow, label = "render", holder = render.node): Promise<boolean> {
    const db = openDb(this.env.DB);
    const node = holder ? null : job.nodeId ? await db.query.renderNodes.findFirst({ where: eq(renderNodes.id, job.nodeId) }) : undefined;
    const nodeName = holder ?? node?.name ?? "(unknown)";
    const max = maxJobAttempts(this.env);
    const seconds = Math.round(leaseMs(this.env) / 1000);
    const why = `${label}: node ${nodeName} stopped renewing its lease (no progress for ${seconds} s; attempt ${job.attempts} of ${max})`;
    if (job.attempts >= max) {
      await this.appendLines(render.id, [why]);
      const who = label === "render" ? `render node ${nodeName}` : `${label}: node ${nodeName}`;
      await this.finish(render.id, { ok: false, error: `${who} stopped responding on the last attempt (${job.attempts} of ${max}); the render was given up` });
      return true;
    }
    if (!(await requeueLapsedJob(db, job.id, job.nodeId))) return false;
    render.retries = (render.retries ?? 0) + 1;
    if (!render.segments) {
      render.status = "queued";
      await writeProjection(db, render);
    }
    await this.ctx.storage.put("render", render);
    await this.appendLines(render.id, [`${why}; queued again for another node`]);
    logEvent("warn", "render.requeued", { renderId: render.id, why });
    await announceWork(this.env, job.kind as "render" | "segment" | "join");
    return false;
  }
}
