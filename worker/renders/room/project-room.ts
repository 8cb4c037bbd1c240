// One ProjectRoom per (user, project): the one owner of a render's status. A render's life is one state machine
// (render-transitions.ts: pure, event → next render + effects); the room reads what a transition needs
// (render-facts.ts) and applies the step (apply-step.ts: stores the render in its storage, render-store.ts, then
// performs the effects in order). A render's start and end (render-ends.ts) involve its storage, D1 and the waiters
// at once; around them the room fails a strict render at once and goes on with a batch, whose rows are its renders,
// one after another (batch-run.ts). The alarm is the watchdog (`watched`), and sweeps ended renders' live pieces
// (live-sweeps.ts). Every alarm path ends: an ended render with its D1 rows written and no live pieces left to sweep
// sets no alarm. The life of a render, file by file: worker/renders/README.md.
import type { BudgetRefused } from "../../budgets/charge.ts";
import { DurableObject } from "cloudflare:workers";
import type { CompleteRequest } from "../../../core/protocol/node-routes.ts";
import type { ProgressEvent } from "../../../core/protocol/progress.ts";
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";
import { isInProgress, type BatchState } from "../../../core/protocol/render-state.ts";
import { logEvent } from "../../http/log.ts";
import { openDb } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { announceWork } from "../farm/job-board.ts";
import type { JobHolder } from "../farm/job-holder.ts";
import { writeFileDeleted } from "../projection.ts";
import { segmentKey } from "../segment-keys.ts";
import { joinJobId, publicRenderState, segmentJobId, type Progress, type QueuedRender, type RoomRender } from "../state.ts";
import { ChangeWaiters } from "./change-waiters.ts";
import { applyStep } from "./apply-step.ts";
import { RenderFeed } from "./render-feed.ts";
import { RenderEnds, renderView, type RenderView } from "./render-ends.ts";
import { RenderCache } from "./render-cache.ts";
import { LiveSweeps } from "./live-sweeps.ts";
import { heldJobLook, holds, limitsOf, splitDecision, uploadedPoster, uploadedSize, watchLook } from "./render-facts.ts";
import { loadRender } from "./render-store.ts";
import {
  completed,
  fileForgotten,
  givenBack,
  isLive,
  planned,
  progressed,
  segmentCompleted,
  segmentTaken,
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

/** `atCap`: the user already has their limit of renders in progress elsewhere; nothing was started. */
export type AdmitResult = { started: boolean; view: RenderView } | { atCap: true } | { overBudget: BudgetRefused };
/** `batchBusy`: a batch runs in this project (its rows are the renders), so nothing was started. */
export type StartResult = AdmitResult | { batchBusy: true };

/** How a strict render with lint errors ends, at once, with its errors in its log. */
const STRICT_LINT_FAILURE: Outcome = { ok: false, error: "lint errors (strict): fix them or render without strict" };

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
  /** A render's start and end, and the `wait`ers of its end (render-ends.ts). */
  private readonly ends: RenderEnds;
  /** Browser-job waiters (worker/checks/wait-for-job.ts), told when their job is claimed or ends. */
  private readonly jobWaiters = new ChangeWaiters<boolean>();
  private readonly batch: BatchRun;
  /** The project's done renders by their inputs, for a later render with the same ones (render-cache.ts). */
  private readonly cache: RenderCache;
  /** Ended renders' live pieces, removed a while after their end by the alarm (live-sweeps.ts). */
  private readonly sweeps: LiveSweeps;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.watch = new StreamWatch(env.DB, () => this.feed);
    this.feed = new RenderFeed(ctx.storage.sql, (credential) => this.watch.refused(credential));
    this.cache = new RenderCache(ctx.storage.sql);
    this.sweeps = new LiveSweeps(ctx.storage.sql, env.FILES);
    this.ends = new RenderEnds(ctx, env, this.feed, this.cache, this.sweeps);
    // A batch's row starts as any render does, without the batch check of the public start.
    this.batch = new BatchRun(env, ctx.storage, this.feed, (render, failWith) => this.admit(render, failWith));
  }

  private current(): Promise<RoomRender | null> {
    return loadRender(this.ctx.storage);
  }

  private view(render: RoomRender): RenderView {
    return renderView(this.feed, render);
  }

  /** The current or last render with its log, or null when this project never rendered. */
  async getRender(): Promise<RenderView | null> {
    const render = await this.current();
    return render ? this.view(render) : null;
  }

  // ── a render's life: the transitions' steps, applied ─────────────────────────────────────────────────────

  /** Carries out a transition's step (apply-step.ts) and the end it asks for; null when the step was dropped. */
  private async apply(step: Step | null): Promise<RoomRender | null> {
    const applied = await applyStep(this.env, this.ctx.storage, this.feed, step);
    if (applied?.end) await this.finish(applied.render.id, applied.end);
    return applied?.render ?? null;
  }

  /**
   * Starts a render unless one is in progress, in which case that one is returned unchanged (`started: false`).
   * The D1 row is admitted only under the user's cap on renders in progress (else `atCap`, render-ends.ts).
   * `failWith` ends it at once (strict lint). While a batch runs, no other render slips in between its rows
   * (`batchBusy`). `reuse`: a done render with the same inputs (the render's cacheKey) answers it at once
   * (render-ends.ts `begin`), unless the POST said `force`.
   */
  async startRender(render: QueuedRender, failWith?: string[], reuse = false): Promise<StartResult> {
    if (await this.batch.inProgress()) return { batchBusy: true };
    return this.admit(render, failWith, reuse && !failWith);
  }

  /** A render's start (a render POST, or a batch's row): admitted (render-ends.ts), then failed at once when strict lint found errors. */
  private async admit(render: QueuedRender, failWith?: string[], reuse = false): Promise<AdmitResult> {
    const admission = await this.ends.begin(render, !failWith, reuse);
    if ("atCap" in admission || "overBudget" in admission) return admission;
    if ("inProgress" in admission) return { started: false, view: this.view(admission.inProgress) };
    if ("reused" in admission) return { started: true, view: this.view(admission.reused) };
    const { queued } = admission;
    if (failWith) {
      await this.apply(withLines(queued, failWith));
      await this.finish(queued.id, STRICT_LINT_FAILURE);
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
    const [size, poster] = body.ok ? await Promise.all([uploadedSize(this.env, render), uploadedPoster(this.env, render, body.posterError)]) : [null, undefined];
    const latest = await this.current();
    if (!isLive(latest, render.id)) return { ok: true };
    const carried = body.ok && body.carried ? { carried: body.carried } : {};
    await this.apply(completed(latest, body.ok ? { ok: true, size, ...(poster ? { poster } : {}), ...carried } : { ok: false, error: body.error }));
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
    // Planned before the room heard of the claim: nothing to split from; the node renders it whole (one segment of
    // every frame: a node reads any other count as a split and stops).
    if (latest.phase !== "rendering") return { segments: [{ index: 0, fromFrame: 0, toFrame: plan.frames }], cancelled: false };
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
   * The render ended: done (with the file's size), failed (with why), or cancelled. render-ends.ts stores, writes and
   * tells it; then a batch goes on with its next row. The render as it stands when it was not live.
   */
  async finish(renderId: string, outcome: Outcome): Promise<RenderView | null> {
    const ended = await this.ends.end(renderId, outcome);
    if (!ended) {
      const render = await this.current();
      return render ? this.view(render) : null;
    }
    // A batch's row: record it and start the next row; should that break, the alarm goes on with it.
    await this.batch.renderEnded((await this.current()) ?? ended.final, ended.project).catch(async (error: unknown) => {
      logEvent("error", "batch.advance_failed", { renderId, error, retry: "alarm" });
      await this.ctx.storage.setAlarm(Date.now() + 1000);
    });
    return ended.view;
  }

  // ── batches (batch-run.ts) ─────────────────────────────────────────────────────────────────────────────────

  startBatch(batch: RoomBatch, variables: Record<string, unknown>[]): Promise<StartBatchResult> {
    return this.batch.start(batch, variables);
  }

  getBatch() {
    return this.batch.state();
  }

  /** DELETE .../batch: the rows not started are cancelled, then the running row's render; `stopped` when it ran. */
  async cancelBatch(reason = "cancelled by the user"): Promise<{ stopped: boolean; batch: BatchState | null }> {
    const cancelled = await this.batch.cancelRows(reason);
    if (cancelled?.runningRender) await this.finish(cancelled.runningRender, { cancelled: true, reason: `the batch was ${reason}` });
    return { stopped: cancelled !== null, batch: await this.batch.state() };
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
    this.cache.forget(renderId);
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
      return await Promise.race([this.ends.waitForEnd(renderId), held.ended.then(() => ({ credentialEnded: true as const }))]);
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
    await this.cancelBatch("the project was deleted");
    const result = await this.cancel("the project was deleted");
    this.feed.closeAll();
    // Nothing of the project's renders watched live stays behind its room.
    await this.sweeps.sweepDue(Date.now(), true);
    await this.ctx.storage.deleteAll();
    this.feed.reset();
    this.cache.reset();
    this.sweeps.reset();
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
   * The alarm: ended renders' live pieces due to go are swept (live-sweeps.ts); an ended render whose D1 rows are not
   * yet written gets them written, with backoff (then no alarm); a render in progress gets the watchdog's look
   * (render-transitions.ts `watched`), which ends it or looks again. The next sweep keeps an alarm set.
   */
  async alarm(): Promise<void> {
    await this.sweeps.sweepDue(Date.now());
    await this.renderAlarm();
    await this.sweeps.arm(this.ctx.storage);
  }

  private async renderAlarm(): Promise<void> {
    const render = await this.current();
    if (!render) return;
    if (render.phase !== "ended") return this.watchdog(render.id);
    if (!render.synced) await this.ends.retrySync(render);
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
