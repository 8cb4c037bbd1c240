// One ProjectRoom per (user, project): the one owner of a render's live state. It applies the render's transitions
// (render-transitions.ts: queued, rendering, retried, done, failed, cancelled), takes a node's reports on them
// (node-reports.ts), writes the render's D1 row as their projection (renders/projection.ts) and ends the queue's
// work rows from them (renders/write-ended-render.ts), answers waiters (`wait`, browser jobs) and runs the watchdog
// (render-watchdog.ts). A split render's segments and join are split-render.ts. What it tells (the log, the
// numbered events, the streams) goes through its RenderFeed (render-feed.ts). A batch's rows are its renders, one
// after another (batch-run.ts). Every alarm path ends: an ended render with its D1 rows written sets no alarm.
import { DurableObject } from "cloudflare:workers";
import type { CompleteRequest } from "../../../core/protocol/node-routes.ts";
import type { ProgressEvent } from "../../../core/protocol/progress.ts";
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";
import { isInProgress, type RenderWithLog } from "../../../core/protocol/render-state.ts";
import { logEvent } from "../../http/log.ts";
import { projectLookup } from "../notify-render-ended.ts";
import { openDb } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { writeFileDeleted, writeProjection } from "../projection.ts";
import { publicRenderState, type Progress, type RoomRender } from "../state.ts";
import { ChangeWaiters } from "./change-waiters.ts";
import { endRender, RENDER_KEY, retrySync, type EndParts } from "./render-end.ts";
import { RenderFeed } from "./render-feed.ts";
import { isLive, withLines, type Outcome } from "./render-transitions.ts";
import { watchRender } from "./render-watchdog.ts";
import type { RoomCore } from "./room-core.ts";
import { BatchRun, type StartBatchResult } from "./batch-run.ts";
import { admitRender, type AdmitResult, type StartParts } from "./render-start.ts";
import type { RoomBatch } from "./batch-transitions.ts";
import { completeSegment, markSegment, planRender } from "./split-render.ts";
import { appendLines, completeRender, markRendering, nodeProgress } from "./node-reports.ts";
import { StreamWatch } from "./stream-watch.ts";
import { carriedStreamCredential, type CredentialEnd, type StreamCredential } from "../../auth/stream-credential.ts";

export type RenderView = RenderWithLog;
/** `atCap`: the user already has their limit of renders in progress elsewhere; nothing was started. `batchBusy`: a
 * batch runs in this project (its rows are the renders), so nothing was started. */
export type StartResult = AdmitResult | { batchBusy: true };

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

  /** The room as split-render.ts and render-watchdog.ts see it; kept off the object's RPC surface. */
  private readonly core: RoomCore;
  /** What render-end.ts needs to end a render. */
  private readonly ends: EndParts;
  private readonly batch: BatchRun;
  /** What render-start.ts needs to start a render. */
  private readonly starts: StartParts;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.watch = new StreamWatch(env.DB, () => this.feed);
    this.feed = new RenderFeed(ctx.storage.sql, (credential) => this.watch.refused(credential));
    this.core = {
      env,
      current: () => this.current(),
      save: (render) => this.save(render),
      tell: (render, lines, progress) => this.tell(render, lines, progress),
      finish: (renderId, outcome) => this.finish(renderId, outcome),
      watchAgainAt: (at) => ctx.storage.setAlarm(at),
      saidOnce: async (key) => {
        if (await ctx.storage.get(key)) return true;
        await ctx.storage.put(key, true);
        return false;
      },
    };
    this.ends = { env, storage: ctx.storage, feed: this.feed, waiters: this.waiters, view: (render) => this.view(render) };
    this.starts = { ...this.core, storage: ctx.storage, feed: this.feed, view: (render) => this.view(render), exclusive: (work) => ctx.blockConcurrencyWhile(work) };
    this.batch = new BatchRun({
      env,
      storage: ctx.storage,
      feed: this.feed,
      current: () => this.current(),
      startRender: (render, failWith) => admitRender(this.starts, render, failWith),
      finish: (renderId, outcome) => this.finish(renderId, outcome),
    });
  }

  private async current(): Promise<RoomRender | null> {
    return (await this.ctx.storage.get<RoomRender>(RENDER_KEY)) ?? null;
  }

  private async save(render: RoomRender): Promise<void> {
    await this.ctx.storage.put(RENDER_KEY, render);
  }

  /** Stores `render` with `lines` (and progress) applied and tells the render's streams. */
  private async tell(render: RoomRender, lines: string[], progress?: Progress | null): Promise<RoomRender> {
    const next = withLines(render, lines, progress);
    await this.save(next);
    this.feed.lines(next.id, lines, { status: next.status, progress: next.progress, ...(next.status === "queued" && next.queue ? { queue: next.queue } : {}) });
    return next;
  }

  private view(render: RoomRender): RenderView {
    return { ...publicRenderState(render), lines: this.feed.linesOf(render.id) };
  }

  /** The current or last render with its log, or null when this project never rendered. */
  async getRender(): Promise<RenderView | null> {
    const render = await this.current();
    return render ? this.view(render) : null;
  }

  // ── a render's life ────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Starts a render unless one is in progress, in which case that one is returned unchanged (`started: false`).
   * The check and the write are storage operations, which the input gate serialises, so two POSTs racing here
   * cannot both start; only then are the D1 row and the job written. The D1 row is admitted only under the user's
   * cap on renders in progress (else `atCap`, and the room is put back as it was). `failWith` ends it at once
   * (strict lint). While a batch runs, no other render slips in between its rows (`batchBusy`).
   */
  async startRender(render: RoomRender, failWith?: string[]): Promise<StartResult> {
    if (await this.batch.inProgress()) return { batchBusy: true };
    return admitRender(this.starts, render, failWith);
  }


  // A node's reports on a whole render (node-reports.ts); a split render's segments are split-render.ts.

  appendLines(renderId: string, lines: string[], progress?: Progress | null): Promise<{ cancelled: boolean }> {
    return appendLines(this.core, renderId, lines, progress);
  }

  nodeProgress(renderId: string, segment: number | "join" | null, lines: string[], event?: ProgressEvent): Promise<{ cancelled: boolean }> {
    return nodeProgress(this.core, renderId, segment, lines, event);
  }

  markRendering(renderId: string, nodeName: string, attempt = 1): Promise<void> {
    return markRendering(this.core, renderId, nodeName, attempt);
  }

  complete(jobId: string, nodeId: string, body: CompleteRequest): Promise<{ ok: boolean; error?: string }> {
    return completeRender(this.core, jobId, nodeId, body);
  }

  plan(renderId: string, nodeId: string, plan: RenderPlan): Promise<{ segments: SegmentRange[]; cancelled: boolean }> {
    return planRender(this.core, renderId, nodeId, plan);
  }

  markSegment(renderId: string, segment: number | "join", nodeName: string, attempt: number): Promise<void> {
    return markSegment(this.core, renderId, segment, nodeName, attempt);
  }

  completeSegment(renderId: string, index: number, nodeId: string, body: CompleteRequest): Promise<{ ok: boolean; error?: string }> {
    return completeSegment(this.core, renderId, index, nodeId, body);
  }

  /** The render ended: done (with the file's size), failed (with why), or cancelled. */
  async finish(renderId: string, outcome: Outcome): Promise<RenderView | null> {
    const render = await this.current();
    if (!isLive(render, renderId) || this.finishing.has(renderId)) return render ? this.view(render) : null;
    this.finishing.add(renderId);
    // Read once for the render's webhook and, when this was a batch's last row, the batch's.
    const project = projectLookup(this.env, render.userId, render.slug);
    let view: RenderView;
    try {
      view = await endRender(this.ends, render, outcome, project);
    } finally {
      this.finishing.delete(renderId);
    }
    // A batch's row: record it and start the next row; should that break, the alarm goes on with it.
    await this.batch.renderEnded((await this.current()) ?? render, project).catch(async (error: unknown) => {
      logEvent("error", "batch.advance_failed", { renderId, error, retry: "alarm" });
      await this.ctx.storage.setAlarm(Date.now() + 1000);
    });
    return view;
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
      if (render.deletedAt) return;
      const forgotten = { ...render, deletedAt: Date.now() };
      await this.save(forgotten);
      await writeProjection(db, forgotten);
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
   * a render in progress gets the watchdog's look (render-watchdog.ts), which ends it or re-arms.
   */
  async alarm(): Promise<void> {
    const render = await this.current();
    if (!render) return;
    if (isInProgress(render.status)) return watchRender(this.core, render, Date.now());
    if (render.synced === false) await retrySync(this.ends, render);
    await this.batch.advance();
  }
}
