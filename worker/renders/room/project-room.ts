// One ProjectRoom per (user, project): the one owner of a render's status. This class is the room's entry point
// (what the Worker's stubs call, its alarm) and builds its parts; each call is carried out where its concern lives:
//   - node-calls.ts: what the render nodes' calls about a render's jobs do (a claim heard, progress, plan,
//     completion, a job given back, whether a live piece is still wanted);
//   - user-calls.ts: what a user's requests do (start, read, cancel and wait for a render; batches; a deleted file;
//     the event streams);
//   - render-driver.ts: the one way a render changes, which both use: its start, each transition's step applied
//     (the state machine: render-transitions.ts, split-transitions.ts, pure), its end, then a batch's next row.
// The alarm is the watchdog (watchdog.ts), retries an ended render's D1 writes (render-ends.ts) and sweeps ended
// renders' live pieces (live-sweeps.ts). Every alarm path ends: an ended render with its D1 rows written and no live
// pieces left to sweep sets no alarm. The life of a render, file by file: worker/renders/README.md.
import type { RenderQuote } from "../../../core/protocol/render-quote.ts";
import { DurableObject } from "cloudflare:workers";
import type { CompleteRequest } from "../../../core/protocol/node-routes.ts";
import type { ProgressEvent } from "../../../core/protocol/progress.ts";
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";
import type { BatchState } from "../../../core/protocol/render-state.ts";
import type { CredentialEnd, StreamCredential } from "../../auth/stream-credential.ts";
import type { Env } from "../../env.ts";
import type { JobHolder } from "../farm/job-holder.ts";
import type { QueuedRender } from "../state.ts";
import { BatchRun, type StartBatchResult } from "./batch-run.ts";
import type { RoomBatch } from "./batch-transitions.ts";
import { ChangeWaiters } from "./change-waiters.ts";
import { LiveSweeps } from "./live-sweeps.ts";
import { NodeCalls, type CompleteAnswer, type RenderUpload } from "./node-calls.ts";
import { RenderCache } from "./render-cache.ts";
import { RenderDriver } from "./render-driver.ts";
import { RenderEnds, type RenderView } from "./render-ends.ts";
import { RenderFeed } from "./render-feed.ts";
import { StreamWatch } from "./stream-watch.ts";
import { UserCalls, type StartResult } from "./user-calls.ts";
import { watchdogLook } from "./watchdog.ts";

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
  /** The batch in progress, one row (one render) at a time (batch-run.ts). */
  private readonly batch: BatchRun;
  /** The project's done renders by their inputs, for a later render with the same ones (render-cache.ts). */
  private readonly cache: RenderCache;
  /** Ended renders' live pieces, removed a while after their end by the alarm (live-sweeps.ts). */
  private readonly sweeps: LiveSweeps;
  /** Starts, steps and ends the room's render (render-driver.ts). */
  private readonly driver: RenderDriver;
  /** What the render nodes' calls do (node-calls.ts). */
  private readonly nodes: NodeCalls;
  /** What a user's requests do (user-calls.ts). */
  private readonly users: UserCalls;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.watch = new StreamWatch(env.DB, () => this.feed);
    this.feed = new RenderFeed(ctx.storage.sql, (credential) => this.watch.refused(credential));
    this.cache = new RenderCache(ctx.storage.sql);
    this.sweeps = new LiveSweeps(ctx.storage.sql, env.FILES);
    this.ends = new RenderEnds(ctx, env, this.feed, this.cache, this.sweeps);
    // A batch's row starts as any render does, without the batch check of the public start.
    this.batch = new BatchRun(env, ctx.storage, this.feed, (render, failWith) => this.driver.admit(render, failWith));
    this.driver = new RenderDriver(env, ctx.storage, this.feed, this.ends, this.batch);
    this.nodes = new NodeCalls(env, this.driver);
    this.users = new UserCalls(env, this.driver, this.batch, this.ends, this.feed, this.watch, this.cache);
  }

  // ── the render nodes' calls (node-calls.ts) ─────────────────────────────────────────────────────────────────

  markRendering(renderId: string, nodeName: string, attempt = 1): Promise<void> {
    return this.nodes.markRendering(renderId, nodeName, attempt);
  }

  nodeProgress(renderId: string, segment: number | "join" | null, lines: string[], event?: ProgressEvent): Promise<{ cancelled: boolean }> {
    return this.nodes.nodeProgress(renderId, segment, lines, event);
  }

  plan(renderId: string, holder: JobHolder, plan: RenderPlan): Promise<{ segments: SegmentRange[]; cancelled: boolean }> {
    return this.nodes.plan(renderId, holder, plan);
  }

  complete(jobId: string, holder: JobHolder, body: CompleteRequest): Promise<CompleteAnswer> {
    return this.nodes.complete(jobId, holder, body);
  }

  giveBack(renderId: string, jobId: string, holder: JobHolder): Promise<{ released: boolean }> {
    return this.nodes.giveBack(renderId, jobId, holder);
  }

  markSegment(renderId: string, segment: number | "join", nodeName: string, attempt: number): Promise<void> {
    return this.nodes.markSegment(renderId, segment, nodeName, attempt);
  }

  completeSegment(renderId: string, index: number, holder: JobHolder, body: CompleteRequest): Promise<CompleteAnswer> {
    return this.nodes.completeSegment(renderId, index, holder, body);
  }

  keepsUpload(renderId: string, upload: RenderUpload): Promise<boolean> {
    return this.nodes.keepsUpload(renderId, upload);
  }

  // ── a user's requests (user-calls.ts) ───────────────────────────────────────────────────────────────────────

  getRender(): Promise<RenderView | null> {
    return this.users.getRender();
  }

  startRender(render: QueuedRender, failWith?: string[], reuse = false): Promise<StartResult> {
    return this.users.startRender(render, failWith, reuse);
  }

  cancel(reason?: string): Promise<{ stopped: boolean }> {
    return this.users.cancel(reason);
  }

  waitForEnd(renderId: string, credential: StreamCredential): Promise<RenderView | null | { credentialEnded: true }> {
    return this.users.waitForEnd(renderId, credential);
  }

  forgetFile(renderId: string, filename: string): Promise<void> {
    return this.users.forgetFile(renderId, filename);
  }

  startBatch(batch: RoomBatch, variables: Record<string, unknown>[], firstQuote?: RenderQuote): Promise<StartBatchResult> {
    return this.users.startBatch(batch, variables, firstQuote);
  }

  getBatch(): Promise<BatchState | null> {
    return this.users.getBatch();
  }

  cancelBatch(reason?: string): Promise<{ stopped: boolean; batch: BatchState | null }> {
    return this.users.cancelBatch(reason);
  }

  /** The render and project event streams (user-calls.ts `events`). */
  async fetch(request: Request): Promise<Response> {
    return this.users.events(request);
  }

  async endStreams(end: CredentialEnd): Promise<number> {
    return this.users.endStreams(end);
  }

  async filesChanged(change: { written?: string[]; deleted?: string[] }): Promise<void> {
    this.users.filesChanged(change);
  }

  // ── browser jobs (snapshot, check) ────────────────────────────────────────────────────────────────────────────

  /** Resolves true when the job is claimed or ends (jobChanged), false after `timeoutMs`. */
  async awaitJobChange(jobId: string, timeoutMs: number): Promise<boolean> {
    return this.jobWaiters.wait(jobId, timeoutMs, false);
  }

  async jobChanged(jobId: string): Promise<void> {
    this.jobWaiters.notify(jobId, true);
  }

  // ── the room as a whole ────────────────────────────────────────────────────────────────────────────────────

  /** Before the project is deleted: stop the batch and the render, end the streams, forget everything. */
  async stopAll(): Promise<{ stopped: boolean }> {
    await this.users.cancelBatch("the project was deleted");
    const result = await this.users.cancel("the project was deleted");
    this.feed.closeAll();
    // Nothing of the project's renders watched live stays behind its room.
    await this.sweeps.sweepDue(Date.now(), true);
    await this.ctx.storage.deleteAll();
    this.feed.reset();
    this.cache.reset();
    this.sweeps.reset();
    return result;
  }

  /**
   * The alarm: ended renders' live pieces due to go are swept (live-sweeps.ts); an ended render whose D1 rows are not
   * yet written gets them written, with backoff (then no alarm), and a batch goes on; a render in progress gets the
   * watchdog's look (watchdog.ts), which ends it or looks again. The next sweep keeps an alarm set.
   */
  async alarm(): Promise<void> {
    await this.sweeps.sweepDue(Date.now());
    const render = await this.driver.current();
    if (render && render.phase !== "ended") {
      await watchdogLook(this.env, this.ctx.storage, this.driver, render.id);
    } else if (render) {
      if (!render.synced) await this.ends.retrySync(render);
      await this.batch.advance();
    }
    await this.sweeps.arm(this.ctx.storage);
  }
}
