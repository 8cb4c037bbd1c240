// A render's start and end in its room, the two moments that involve the room's storage, D1 and the waiters at once.
// The start: stored, its D1 row and job admitted under the user's cap, the watchdog armed, told. The end: the
// decision stored and told first, then the D1 rows written (retried by the alarm with backoff should D1 fail), then
// the streams, the `wait`ers and the webhook hear of it. What comes around them (a strict render failed at once, a
// batch's next row) is the driver's (render-driver.ts).
import { nodeRenderOptions } from "../../../core/render/render-options.ts";
import { isInProgress, type RenderWithLog } from "../../../core/protocol/render-state.ts";
import { backoffDelay } from "../../../core/retry.ts";
import { settled } from "../../../core/settled.ts";
import { openDb } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { logEvent } from "../../http/log.ts";
import { capOf } from "../../limits/work-caps.ts";
import type { BudgetRefused } from "../../budgets/charge.ts";
import { notifyRenderEnded, projectLookup, type ProjectLookup } from "../notify-render-ended.ts";
import { admitRender, jobIdsOf, writeEndedRender } from "../projection.ts";
import { actualUse } from "../actual-use.ts";
import { findJobs } from "../farm/queue.ts";
import { publicRenderState, type EndedRender, type QueuedRender, type RoomRender } from "../state.ts";
import { applyStep } from "./apply-step.ts";
import type { RenderCache } from "./render-cache.ts";
import { LIVE_GRACE_MS, type LiveSweeps } from "./live-sweeps.ts";
import { isLiveFormat } from "../../../core/render/segment-plan.ts";
import { reuseRender } from "./reuse-render.ts";
import { ChangeWaiters } from "./change-waiters.ts";
import { limitsOf } from "./render-facts.ts";
import type { RenderFeed } from "./render-feed.ts";
import { forgetRender, loadRender, storeRender } from "./render-store.ts";
import { isLive } from "./render-step.ts";
import { admitted as admittedStep, ended, synced, syncFailed, type Outcome } from "./render-transitions.ts";

export type RenderView = RenderWithLog;

/** What a start came to: the render queued, the render already in progress (nothing changed), the user's cap, or
 * a budget of its caller (nothing changed either). */
export type Admission = { queued: QueuedRender } | { reused: EndedRender } | { inProgress: RoomRender } | { atCap: true } | { overBudget: BudgetRefused };

/** An end carried out: the render as stored, as its waiters got it, and its project's lookup (for a batch's webhook). */
export interface EndedView {
  final: EndedRender;
  view: RenderView;
  project: ProjectLookup;
}

/** Retry delays for D1 writes of an ended render that failed: 1 s, doubling to at most 10 min, for at most
 * MAX_SYNC_TRIES tries (about 2 h); then the alarm stops for good. */
const SYNC_BACKOFF = { firstMs: 1000, maxMs: 600_000 };
const MAX_SYNC_TRIES = 20;
/** Rendering rows still "in progress" this long past the wall-clock limit are stale (their room never ended them). */
const STALE_AFTER_LIMIT_MS = 60_000;

/** The render as GET .../render shows it: its public state with its log. */
export const renderView = (feed: RenderFeed, render: RoomRender): RenderView => ({ ...publicRenderState(render), lines: feed.linesOf(render.id) });

export class RenderEnds {
  private readonly waiters = new ChangeWaiters<RenderView>();
  /** Renders whose end is under way: an end awaits D1, and a second end meanwhile must not run. */
  private readonly ending = new Set<string>();

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly feed: RenderFeed,
    private readonly cache: RenderCache,
    private readonly sweeps: LiveSweeps,
  ) {}

  /**
   * Starts `render` unless one is in progress. The check and the write are storage operations, which the input gate
   * serialises, so two POSTs racing here cannot both start; only then are the D1 row and (`withJob`) the job
   * written, under the user's cap on renders in progress (else `atCap`, and the room's storage is put back).
   * `reuse`: look for a done render with the render's inputs (its cacheKey) first, and when there is one answer
   * with a copy of it, done at once (`reused`, reuse-render.ts); a miss goes on as any render.
   */
  async begin(render: QueuedRender, withJob: boolean, reuse = false): Promise<Admission> {
    const storage = this.ctx.storage;
    const existing = await loadRender(storage);
    if (existing && isInProgress(existing.status)) return { inProgress: existing };
    await storeRender(storage, render);
    // The job is queued in the row's round trip, so a node may claim it (and report to the room) before the room has
    // stored the render as admitted and told its start: no other call reaches the room until it has. (Only storage
    // blocks other calls by itself; a D1 call does not.)
    const admission = await this.ctx.blockConcurrencyWhile(async (): Promise<Admission> => {
      const reused = reuse ? await this.reuse(render) : null;
      if (reused) return { reused };
      const staleBefore = Date.now() - limitsOf(this.env).maxRenderMs - STALE_AFTER_LIMIT_MS;
      const job = withJob ? { kind: "render" as const, options: nodeRenderOptions(render.options) } : undefined;
      const admitted = await admitRender(openDb(this.env.DB), render, capOf(this.env, "render"), staleBefore, job);
      if (!("admitted" in admitted)) {
        if (existing) await storeRender(storage, existing);
        else await forgetRender(storage);
        return admitted;
      }
      const named = admitted.admitted;
      // The watchdog runs from the start, so even a render whose job never got queued ends.
      await storage.setAlarm(Date.now() + limitsOf(this.env).watchdogMs);
      this.feed.started(named.id, publicRenderState(named));
      const queued = (await applyStep(this.env, storage, this.feed, admittedStep(named)))?.render;
      return queued?.phase === "queued" ? { queued } : { atCap: true };
    });
    return admission;
  }

  /**
   * The render as a reuse of the done render its cacheKey names in the cache, stored and told (start, its log, end:
   * a stream opened on it closes at once, as on any ended render) and recorded as the latest with its inputs; null
   * when there is none or it cannot be reused (then it is admitted as any render; a file found gone is forgotten).
   */
  private async reuse(render: QueuedRender): Promise<EndedRender | null> {
    const cached = render.cacheKey ? this.cache.find(render.cacheKey) : null;
    if (!cached) return null;
    const reuse = await reuseRender(this.env, render, cached);
    if ("miss" in reuse) {
      if (reuse.gone) this.cache.forget(cached.renderId);
      return null;
    }
    const { reused, lines } = reuse;
    await storeRender(this.ctx.storage, reused);
    this.feed.started(reused.id, publicRenderState(reused));
    this.feed.lines(reused.id, lines, { status: reused.status, progress: reused.progress });
    this.feed.ended(publicRenderState(reused));
    this.cache.record(reused, lines);
    // Its webhook is queued after the answer: a reuse's request waits on no more than its one D1 batch.
    this.ctx.waitUntil(notifyRenderEnded(this.env, reused));
    return reused;
  }

  /**
   * Ends the render: done (with the file's size), failed (with why), or cancelled. The decision (`ended`) is stored
   * and told first, then the D1 rows are written (projection.ts writeEndedRender); should they fail, the decision
   * stands, the render offers no download, and the alarm writes them with backoff (`retrySync`). Then the streams,
   * the `wait`ers and the webhook hear of it. Null when the render is not live or its end is already under way.
   */
  async end(renderId: string, outcome: Outcome): Promise<EndedView | null> {
    const storage = this.ctx.storage;
    const render = await loadRender(storage);
    if (!isLive(render, renderId) || this.ending.has(renderId)) return null;
    this.ending.add(renderId);
    // Read once for the render's webhook and, when this was a batch's last row, the batch's.
    const project = projectLookup(this.env, render.userId, render.slug);
    let final: EndedRender;
    try {
      const step = ended(render, outcome, Date.now());
      this.feed.lines(render.id, [step.line], { status: render.status, progress: render.progress });
      await storeRender(storage, step.render);
      await storage.deleteAlarm();
      // The project's webhook is looked up only without a webhookUrl; then in the same round trip as the writes.
      if (!render.options.webhookUrl) void settled(project()); // its failure is the notice's, which awaits it and logs it
      final = step.render;
      try {
        final = await this.sync(step.render);
      } catch (error) {
        logEvent("error", "render.end_write_failed", { renderId, retry: "alarm", error });
        await storage.setAlarm(Date.now() + backoffDelay(SYNC_BACKOFF, 1));
      }
    } finally {
      this.ending.delete(renderId);
    }
    const view = renderView(this.feed, final);
    // A done render with keyed inputs is what a later render with the same inputs reuses (render-cache.ts).
    if (final.synced) this.cache.record(final, view.lines);
    this.feed.ended(publicRenderState(final));
    this.waiters.notify(renderId, view);
    await notifyRenderEnded(this.env, final, project);
    return { final, view, project };
  }

  /** Resolves with the render's view when it ends (`end`); the caller checked that it is in progress. */
  waitForEnd(renderId: string): Promise<RenderView> {
    return this.waiters.wait(renderId);
  }

  /** The alarm of an ended render whose rows are not written yet: one more try, then the next with backoff. */
  async retrySync(render: EndedRender): Promise<void> {
    let done: EndedRender;
    try {
      done = await this.sync(render);
    } catch (error) {
      const next = syncFailed(render);
      await storeRender(this.ctx.storage, next);
      if (next.syncTries < MAX_SYNC_TRIES) await this.ctx.storage.setAlarm(Date.now() + backoffDelay(SYNC_BACKOFF, next.syncTries + 1));
      else logEvent("error", "render.end_write_abandoned", { renderId: render.id, tries: next.syncTries, error });
      return;
    }
    // Written at last: a done render is now what a later render with its inputs reuses (render-cache.ts).
    this.cache.record(done, this.feed.linesOf(done.id));
  }

  /**
   * Writes an ended render's D1 rows, then marks it synced (from then on a done render offers its download). Its jobs
   * are ended with the rows, so no node starts a live piece from then on: a render watched live has its pieces swept
   * LIVE_GRACE_MS later (live-sweeps.ts), its playlist ending cleanly meanwhile.
   */
  private async sync(ended: EndedRender): Promise<EndedRender> {
    // Its actual use is read from the job rows first, so the row written carries it beside the quote.
    const actual = ended.actual ?? actualUse(await findJobs(openDb(this.env.DB), jobIdsOf(ended)), ended);
    const render = actual ? { ...ended, actual } : ended;
    await writeEndedRender(this.env, render);
    const done = synced(render);
    await storeRender(this.ctx.storage, done);
    if (isLiveFormat(done.options.format)) {
      await this.sweeps.schedule(done.userId, done.id, Date.now() + LIVE_GRACE_MS);
      await this.sweeps.arm(this.ctx.storage);
    }
    return done;
  }
}
