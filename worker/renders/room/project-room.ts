// One ProjectRoom per (user, project): the one owner of a render's status. A render's life is one state machine
// (render-transitions.ts: pure, event → next render + effects); the room reads what a transition needs
// (render-facts.ts), applies the step (`apply`: stores the render in its storage, render-store.ts, then performs the
// effects in order: tells its log and streams through its RenderFeed, writes the D1 rows through the one projector,
// renders/projection.ts, queues or ends jobs, ends the render), and carries out a render's start and end, which
// involve its storage, D1 and the waiters at once. The alarm is the watchdog (`watched`). A batch's rows are its
// renders, one after another (batch-run.ts). Every alarm path ends: an ended render with its D1 rows written sets no
// alarm. The life of a render, file by file: worker/renders/README.md.
import { DurableObject } from "cloudflare:workers";
import type { CompleteRequest } from "../../../core/protocol/node-routes.ts";
import type { ProgressEvent } from "../../../core/protocol/progress.ts";
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";
import { isInProgress, type RenderWithLog } from "../../../core/protocol/render-state.ts";
import { backoffDelay } from "../../../core/retry.ts";
import { settled } from "../../../core/settled.ts";
import { logEvent } from "../../http/log.ts";
import { notifyRenderEnded, projectLookup } from "../notify-render-ended.ts";
import { openDb } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { capOf } from "../../limits/work-caps.ts";
import { announceWork } from "../farm/job-board.ts";
import type { JobHolder } from "../farm/job-holder.ts";
import { wakeRenderNodes } from "../farm/render-node-container.ts";
import { admitRender, endRenderJob, queueRenderJobs, releaseRenderJob, requeueRenderJob, writeEndedRender, writeFileDeleted, writeProjection } from "../projection.ts";
import { segmentKey } from "../segment-keys.ts";
import { joinJobId, publicRenderState, segmentJobId, type EndedRender, type Progress, type QueuedRender, type RoomRender } from "../state.ts";
import { ChangeWaiters } from "./change-waiters.ts";
import { RenderFeed } from "./render-feed.ts";
import { heldJobLook, holds, limitsOf, splitDecision, uploadedSize, watchLook } from "./render-facts.ts";
import { forgetRender, loadRender, storeRender } from "./render-store.ts";
import {
  admitted,
  completed,
  ended,
  fileForgotten,
  givenBack,
  isLive,
  planned,
  progressed,
  segmentCompleted,
  segmentTaken,
  synced,
  syncFailed,
  taken,
  watched,
  withLines,
  type Outcome,
  type Step,
} from "./render-transitions.ts";
import { BatchRun, type StartBatchResult } from "./batch-run.ts";
import type { RoomBatch } from "./batch-transitions.ts";
import { StreamWatch } from "./stream-watch.ts";
import { carriedStreamCredential, type CredentialEnd, type StreamCredential } from "../../auth/stream-credential.ts";

export type RenderView = RenderWithLog;
/** `atCap`: the user already has their limit of renders in progress elsewhere; nothing was started. */
export type AdmitResult = { started: boolean; view: RenderWithLog } | { atCap: true };
/** `batchBusy`: a batch runs in this project (its rows are the renders), so nothing was started. */
export type StartResult = AdmitResult | { batchBusy: true };

/** Retry delays for D1 writes of an ended render that failed: 1 s, doubling to at most 10 min, for at most
 * MAX_SYNC_TRIES tries (about 2 h); then the alarm stops for good. */
const SYNC_BACKOFF = { firstMs: 1000, maxMs: 600_000 };
const MAX_SYNC_TRIES = 20;
/** Rendering rows still "in progress" this long past the wall-clock limit are stale (their room never ended them). */
const STALE_AFTER_LIMIT_MS = 60_000;

// Types env.ts's ProjectRoom namespace (durable-object-classes.ts says why this way round).
declare module "../../durable-object-classes.ts" {
  interface DurableObjectClasses {
    ProjectRoom: ProjectRoom;
  }
}

export class ProjectRoom extends DurableObject<Env> {
  /** The log, the numbered events and the streams (render-feed.ts); the room decides, the feed tells. */
  private readonly feed: RenderFeed;
  /** Ends the streams of a credential that ended, told or found by its backstop (stream-watch.ts). */
  private readonly watch: StreamWatch;
  private readonly waiters = new ChangeWaiters<RenderView>();
  /** Browser-job waiters (worker/checks/wait-for-job.ts), told when their job is claimed or ends. */
  private readonly jobWaiters = new ChangeWaiters<boolean>();
  /** Renders whose finish is under way: finish awaits D1, and a second finish meanwhile must not run. */
  private readonly finishing = new Set<string>();
  private readonly batch: BatchRun;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.watch = new StreamWatch(env.DB, () => this.feed);
    this.feed = new RenderFeed(ctx.storage.sql, (credential) => this.watch.refused(credential));
    this.batch = new BatchRun({
      env,
      storage: ctx.storage,
      feed: this.feed,
      current: () => this.current(),
      startRender: (render, failWith) => this.admit(render, failWith),
      finish: (renderId, outcome) => this.finish(renderId, outcome),
    });
  }

  private current(): Promise<RoomRender | null> {
    return loadRender(this.ctx.storage);
  }

  private view(render: RoomRender): RenderView {
    return { ...publicRenderState(render), lines: this.feed.linesOf(render.id) };
  }

  /** The current or last render with its log, or null when this project never rendered. */
  async getRender(): Promise<RenderView | null> {
    const render = await this.current();
    return render ? this.view(render) : null;
  }

  // ── a render's life: the transitions' steps, applied ─────────────────────────────────────────────────────

  /**
   * Carries out a transition's step: a job to put back first (when another hand got there first, the step is
   * dropped and null returned), then the render stored, then each effect in order.
   */
  private async apply(step: Step | null): Promise<RoomRender | null> {
    if (!step) return null;
    const { render } = step;
    const db = openDb(this.env.DB);
    for (const effect of step.effects) {
      if (effect.do !== "requeueJob") continue;
      const put = effect.attempt !== undefined && effect.nodeId !== null
        ? await releaseRenderJob(db, effect.jobId, { nodeId: effect.nodeId, attempt: effect.attempt }, effect.why)
        : await requeueRenderJob(db, effect.jobId, effect.nodeId);
      if (!put) return null;
      logEvent("warn", "render.requeued", { renderId: render.id, why: effect.why });
    }
    await storeRender(this.ctx.storage, render);
    for (const effect of step.effects) {
      switch (effect.do) {
        case "tell":
          this.feed.lines(render.id, effect.lines, { status: render.status, progress: render.progress, ...(render.phase === "queued" && render.queue ? { queue: render.queue } : {}) });
          break;
        case "project":
          await writeProjection(db, render);
          break;
        case "endJob":
          await endRenderJob(db, effect.jobId, effect.result);
          break;
        case "queueJobs":
          await queueRenderJobs(db, render, effect.jobs);
          break;
        case "announce":
          await announceWork(this.env, effect.kind);
          break;
        case "wakeNodes":
          // In production more container nodes start for the segments (their number follows the queue's depth).
          await wakeRenderNodes(this.env);
          break;
        case "end":
          await this.finish(render.id, effect.outcome);
          break;
        case "requeueJob":
          break;
      }
    }
    return render;
  }

  /**
   * Starts a render unless one is in progress, in which case that one is returned unchanged (`started: false`).
   * The check and the write are storage operations, which the input gate serialises, so two POSTs racing here
   * cannot both start; only then are the D1 row and the job written. The D1 row is admitted only under the user's
   * cap on renders in progress (else `atCap`, and the room is put back as it was). `failWith` ends it at once
   * (strict lint). While a batch runs, no other render slips in between its rows (`batchBusy`).
   */
  async startRender(render: QueuedRender, failWith?: string[]): Promise<StartResult> {
    if (await this.batch.inProgress()) return { batchBusy: true };
    return this.admit(render, failWith);
  }

  /** A render's start (a render POST, or a batch's row): stored, its D1 row and job admitted, the watchdog armed. */
  private async admit(render: QueuedRender, failWith?: string[]): Promise<AdmitResult> {
    const existing = await this.current();
    if (existing && isInProgress(existing.status)) return { started: false, view: this.view(existing) };
    await storeRender(this.ctx.storage, render);
    // The job is queued in the row's round trip, so a node may claim it (and report to the room) before the room has
    // stored the render as admitted and told its start: no other call reaches the room until it has. (Only storage
    // blocks other calls by itself; a D1 call does not.)
    const queued = await this.ctx.blockConcurrencyWhile(async () => {
      const staleBefore = Date.now() - limitsOf(this.env).maxRenderMs - STALE_AFTER_LIMIT_MS;
      const job = failWith ? undefined : { kind: "render" as const, options: render.options };
      const named = await admitRender(openDb(this.env.DB), render, capOf(this.env, "render"), staleBefore, job);
      if (!named) {
        if (existing) await storeRender(this.ctx.storage, existing);
        else await forgetRender(this.ctx.storage);
        return null;
      }
      // The watchdog runs from the start, so even a render whose job never got queued ends.
      await this.ctx.storage.setAlarm(Date.now() + limitsOf(this.env).watchdogMs);
      this.feed.started(named.id, publicRenderState(named));
      return this.apply(admitted(named));
    });
    if (!queued || queued.phase !== "queued") return { atCap: true };
    if (failWith) {
      await this.apply(withLines(queued, failWith));
      await this.finish(queued.id, { ok: false, error: "lint errors (strict): fix them or render without strict" });
    } else {
      await announceWork(this.env, "render");
    }
    return { started: true, view: this.view((await this.current()) ?? queued) };
  }

  // A node's reports (the node routes): each read, decided by a transition, applied.

  /** Appends log lines (from the node or the Worker). Returns whether the node should stop. */
  async appendLines(renderId: string, lines: string[], progress?: Progress | null): Promise<{ cancelled: boolean }> {
    const render = await this.current();
    if (!isLive(render, renderId)) return { cancelled: true };
    await this.apply(withLines(render, lines, progress));
    return { cancelled: false };
  }

  /** A node's progress post on a render, segment or join job: its lines, and its frames (summed over segments). */
  async nodeProgress(renderId: string, segment: number | "join" | null, lines: string[], event?: ProgressEvent): Promise<{ cancelled: boolean }> {
    const render = await this.current();
    if (!isLive(render, renderId)) return { cancelled: true };
    await this.apply(progressed(render, segment, lines, event));
    return { cancelled: false };
  }

  /** A render node took the render's job (`attempt` 1, or a later one after a lost lease). */
  async markRendering(renderId: string, nodeName: string, attempt = 1): Promise<void> {
    const render = await this.current();
    if (!render || render.id !== renderId) return;
    await this.apply(taken(render, nodeName, attempt, limitsOf(this.env).maxAttempts, Date.now()));
  }

  /**
   * POST /api/node/jobs/:id/complete of a render or join job, from the node that holds it. The room decides the
   * outcome (a success with no uploaded file is a failure) and ends the render, which ends the job: the job is never
   * ended first, so a completion that breaks halfway leaves a decision the alarm finishes writing, never a lost one.
   */
  async complete(jobId: string, holder: JobHolder, body: CompleteRequest): Promise<{ ok: boolean; error?: string }> {
    const render = await this.current();
    if (!render || !(render.id === jobId || joinJobId(render.id) === jobId) || !isLive(render, render.id)) return { ok: true };
    if (!(await holds(this.env, jobId, holder))) return { ok: false, error: "this node no longer holds the job" };
    const size = body.ok ? await uploadedSize(this.env, render) : null;
    const latest = await this.current();
    if (!isLive(latest, render.id)) return { ok: true };
    await this.apply(completed(latest, body.ok ? { ok: true, size } : { ok: false, error: body.error }));
    return body.ok && size === null ? { ok: false, error: "the render node reported success but uploaded no file" } : { ok: true };
  }

  /**
   * POST /api/node/jobs/:id/plan: the node that holds the render job loaded the composition. The render is split when
   * that finishes it sooner with the nodes free now (render-facts.ts splitDecision): the render job ends and one
   * segment job per frame range is queued for any nodes; otherwise it stays whole on the planning node. A plan longer
   * than MAX_VIDEO_SECONDS fails the render and queues nothing.
   */
  async plan(renderId: string, holder: JobHolder, plan: RenderPlan): Promise<{ segments: SegmentRange[]; cancelled: boolean }> {
    const render = await this.current();
    if (!isLive(render, renderId) || !(await holds(this.env, renderId, holder))) return { segments: [], cancelled: true };
    const decision = await splitDecision(this.env, render, plan);
    if ("tooLong" in decision) {
      await this.finish(renderId, { ok: false, error: decision.tooLong });
      return { segments: [], cancelled: true };
    }
    const latest = await this.current();
    if (!isLive(latest, renderId)) return { segments: [], cancelled: true };
    // Planned before the room heard of the claim: nothing to split from; the node renders it whole.
    if (latest.phase !== "rendering") return { segments: [], cancelled: false };
    await this.apply(planned(latest, plan, decision.ranges, decision.line));
    return { segments: decision.ranges, cancelled: false };
  }

  /**
   * POST /api/node/jobs/:id/release of a render, segment or join job: the node that holds it is stopping and gives it
   * back (render-transitions.ts `givenBack`: queued again at once, or on the last attempt the render fails).
   */
  async giveBack(renderId: string, jobId: string, holder: JobHolder): Promise<{ released: boolean }> {
    const held = await heldJobLook(this.env, jobId, holder);
    const render = await this.current();
    if (!held || !isLive(render, renderId)) return { released: false };
    const step = givenBack(render, held.job, held.nodeNames, limitsOf(this.env), Date.now());
    return { released: (await this.apply(step)) !== null };
  }

  /** A node took a segment or the join (`attempt` 1, or later after a lost lease). */
  async markSegment(renderId: string, segment: number | "join", nodeName: string, attempt: number): Promise<void> {
    const render = await this.current();
    if (!isLive(render, renderId) || render.phase !== "split") return;
    await this.apply(segmentTaken(render, segment, nodeName, attempt, limitsOf(this.env).maxAttempts));
  }

  /** POST /api/node/jobs/:id/complete of a segment job. The last segment done queues the join. */
  async completeSegment(renderId: string, index: number, holder: JobHolder, body: CompleteRequest): Promise<{ ok: boolean; error?: string }> {
    const render = await this.current();
    if (!isLive(render, renderId) || render.phase !== "split" || !render.segments[index]) return { ok: true };
    if (!(await holds(this.env, segmentJobId(renderId, index), holder))) return { ok: false, error: "this node no longer holds the job" };
    const uploaded = body.ok && !!(await this.env.FILES.head(segmentKey(render.userId, renderId, index)));
    const latest = await this.current();
    if (!isLive(latest, renderId) || latest.phase !== "split") return { ok: true };
    await this.apply(segmentCompleted(latest, index, body.ok ? { ok: true, uploaded } : { ok: false, error: body.error }));
    return body.ok && !uploaded ? { ok: false, error: `segment ${index}: the render node reported success but uploaded no file` } : { ok: true };
  }

  // ── a render's end ─────────────────────────────────────────────────────────────────────────────────────────

  /**
   * The render ended: done (with the file's size), failed (with why), or cancelled. The decision (`ended`) is stored
   * and told first, then the D1 rows are written (projection.ts writeEndedRender); should they fail, the decision
   * stands, the render offers no download, and the alarm writes them with backoff. Then the streams, the `wait`ers
   * and the webhook hear of it, and a batch goes on with its next row.
   */
  async finish(renderId: string, outcome: Outcome): Promise<RenderView | null> {
    const render = await this.current();
    if (!isLive(render, renderId) || this.finishing.has(renderId)) return render ? this.view(render) : null;
    this.finishing.add(renderId);
    // Read once for the render's webhook and, when this was a batch's last row, the batch's.
    const project = projectLookup(this.env, render.userId, render.slug);
    let final: EndedRender;
    try {
      const step = ended(render, outcome, Date.now());
      this.feed.lines(render.id, [step.line], { status: render.status, progress: render.progress });
      await storeRender(this.ctx.storage, step.render);
      await this.ctx.storage.deleteAlarm();
      // The project's webhook is looked up only without a webhookUrl; then in the same round trip as the writes.
      if (!render.options.webhookUrl) void settled(project()); // its failure is the notice's, which awaits it and logs it
      final = step.render;
      try {
        final = await this.sync(step.render);
      } catch (error) {
        logEvent("error", "render.end_write_failed", { renderId, retry: "alarm", error });
        await this.ctx.storage.setAlarm(Date.now() + backoffDelay(SYNC_BACKOFF, 1));
      }
    } finally {
      this.finishing.delete(renderId);
    }
    const view = this.view(final);
    this.feed.ended(publicRenderState(final));
    this.waiters.notify(renderId, view);
    await notifyRenderEnded(this.env, final, project);
    // A batch's row: record it and start the next row; should that break, the alarm goes on with it.
    await this.batch.renderEnded((await this.current()) ?? final, project).catch(async (error: unknown) => {
      logEvent("error", "batch.advance_failed", { renderId, error, retry: "alarm" });
      await this.ctx.storage.setAlarm(Date.now() + 1000);
    });
    return view;
  }

  /** Writes an ended render's D1 rows, then marks it synced (from then on a done render offers its download). */
  private async sync(render: EndedRender): Promise<EndedRender> {
    await writeEndedRender(this.env, render);
    const done = synced(render);
    await storeRender(this.ctx.storage, done);
    return done;
  }

  /** The alarm of an ended render whose rows are not written yet: one more try, then the next with backoff. */
  private async retrySync(render: EndedRender): Promise<void> {
    try {
      await this.sync(render);
    } catch (error) {
      const next = syncFailed(render);
      await storeRender(this.ctx.storage, next);
      if (next.syncTries < MAX_SYNC_TRIES) await this.ctx.storage.setAlarm(Date.now() + backoffDelay(SYNC_BACKOFF, next.syncTries + 1));
      else logEvent("error", "render.end_write_abandoned", { renderId: render.id, tries: next.syncTries, error });
    }
  }

  // ── batches (batch-run.ts) ─────────────────────────────────────────────────────────────────────────────────

  startBatch(batch: RoomBatch, variables: Record<string, unknown>[]): Promise<StartBatchResult> {
    return this.batch.start(batch, variables);
  }

  getBatch() {
    return this.batch.state();
  }

  cancelBatch() {
    return this.batch.cancel();
  }

  /** DELETE .../render: `{ stopped }` is true when a render was in progress and is now cancelled. */
  async cancel(reason = "cancelled by the user"): Promise<{ stopped: boolean }> {
    const render = await this.current();
    if (!render || !isInProgress(render.status)) return { stopped: false };
    await this.finish(render.id, { cancelled: true, reason });
    return { stopped: true };
  }

  /**
   * DELETE /renders/<filename>, once the file is gone: from now on the render offers no download. The room's
   * render changes here and writes its row; an older render's row is written directly.
   */
  async forgetFile(renderId: string, filename: string): Promise<void> {
    const db = openDb(this.env.DB);
    const render = await this.current();
    if (render && render.id === renderId && render.filename === filename) {
      await this.batch.forgetFile(filename);
      if (render.phase === "ended") await this.apply(fileForgotten(render, Date.now()));
      return;
    }
    await this.batch.forgetFile(filename);
    await writeFileDeleted(db, renderId, Date.now());
  }

  /**
   * Holds until the render ends, then returns it with its full log; `credentialEnded` instead when the credential
   * of the waiting request ends first (stream-watch.ts), so the caller answers a 401 and nothing written after.
   */
  async waitForEnd(renderId: string, credential: StreamCredential): Promise<RenderView | null | { credentialEnded: true }> {
    const render = await this.current();
    if (!render || render.id !== renderId) return null;
    if (this.watch.refused(credential)) return { credentialEnded: true };
    if (!isInProgress(render.status)) return this.view(render);
    const held = this.watch.hold(credential);
    try {
      return await Promise.race([this.waiters.wait(renderId), held.ended.then(() => ({ credentialEnded: true as const }))]);
    } finally {
      held.release();
    }
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
    await this.batch.cancel("the project was deleted");
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
    // Every stream is kept with the credential it was opened with, so that credential's end can end it.
    const credential = carriedStreamCredential(request);
    if (!credential) return Response.json({ error: "unauthorized: no credential for this stream" }, { status: 401 });
    let response: Response;
    if (url.pathname === "/project-events") {
      const render = await this.current();
      response = this.feed.subscribeProject(request, credential, render ? publicRenderState(render) : { status: "none" }, await this.batch.state());
    } else {
      response = await this.feed.subscribe(request, credential, async () => {
        const render = await this.current();
        if (render) return { state: this.view(render), ended: !isInProgress(render.status) };
        return { state: JSON.parse(url.searchParams.get("none") ?? '{"status":"none","recent":[]}'), ended: false };
      });
    }
    if (response.ok) this.watch.opened();
    return response;
  }

  /**
   * A credential of this room's user ended (a token rotated, a session signed out, an app disconnected): its streams
   * end now, before the caller answers, and it opens no new one here (stream-watch.ts). How many streams ended.
   */
  async endStreams(end: CredentialEnd): Promise<number> {
    return this.watch.end(end);
  }

  /** A file was written or deleted (worker/projects/files/announce-files.ts): tell the project's open pages. */
  async filesChanged(change: { written?: string[]; deleted?: string[] }): Promise<void> {
    this.feed.filesChanged(change);
  }

  /**
   * The alarm: an ended render whose D1 rows are not yet written gets them written, with backoff (then no alarm);
   * a render in progress gets the watchdog's look (render-transitions.ts `watched`), which ends it or looks again.
   */
  async alarm(): Promise<void> {
    const render = await this.current();
    if (!render) return;
    if (render.phase !== "ended") return this.watchdog(render.id);
    if (!render.synced) await this.retrySync(render);
    await this.batch.advance();
  }

  /** One look of the watchdog: what the queue says of the render's jobs, decided on the render as it is after the
   * reads (a node's report may have changed it meanwhile). */
  private async watchdog(renderId: string): Promise<void> {
    const now = Date.now();
    const looked = await this.current();
    if (!isLive(looked, renderId)) return;
    const look = await watchLook(this.env, looked, now);
    const render = await this.current();
    if (!isLive(render, renderId)) return;
    const decision = watched(render, look, limitsOf(this.env));
    await this.apply(decision.step);
    if (decision.againAt !== null && isLive(await this.current(), renderId)) await this.ctx.storage.setAlarm(decision.againAt);
  }
}
