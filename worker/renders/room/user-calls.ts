// What a user's requests do in their project's room (the render, batch, file and event routes reach them through
// project-room.ts): start a render or a batch, read them, cancel them, wait for a render's end, forget a deleted
// file, and open the event streams. A render changes only through the driver (render-driver.ts); a batch through its
// run (batch-run.ts); every stream and every wait is held with the credential that opened it (stream-watch.ts).
import type { RenderQuote } from "../../../core/protocol/render-quote.ts";
import { isInProgress, type BatchState } from "../../../core/protocol/render-state.ts";
import type { CredentialEnd, StreamCredential } from "../../auth/stream-credential.ts";
import { carriedStreamCredential } from "../../auth/stream-credential.ts";
import { openDb } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { writeFileDeleted } from "../projection.ts";
import { publicRenderState, type QueuedRender } from "../state.ts";
import type { BatchRun, StartBatchResult } from "./batch-run.ts";
import type { RoomBatch } from "./batch-transitions.ts";
import type { RenderCache } from "./render-cache.ts";
import type { AdmitResult, RenderDriver } from "./render-driver.ts";
import type { RenderEnds, RenderView } from "./render-ends.ts";
import type { RenderFeed } from "./render-feed.ts";
import { fileForgotten } from "./render-transitions.ts";
import type { StreamWatch } from "./stream-watch.ts";

/** `batchBusy`: a batch runs in this project (its rows are the renders), so nothing was started. */
export type StartResult = AdmitResult | { batchBusy: true };

export class UserCalls {
  constructor(
    private readonly env: Env,
    private readonly driver: RenderDriver,
    private readonly batch: BatchRun,
    private readonly ends: RenderEnds,
    private readonly feed: RenderFeed,
    private readonly watch: StreamWatch,
    private readonly cache: RenderCache,
  ) {}

  /** The current or last render with its log, or null when this project never rendered. */
  async getRender(): Promise<RenderView | null> {
    const render = await this.driver.current();
    return render ? this.driver.view(render) : null;
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
    return this.driver.admit(render, failWith, reuse && !failWith);
  }

  /** DELETE .../render: `{ stopped }` is true when a render was in progress and is now cancelled. */
  async cancel(reason = "cancelled by the user"): Promise<{ stopped: boolean }> {
    const render = await this.driver.current();
    if (!render || !isInProgress(render.status)) return { stopped: false };
    await this.driver.finish(render.id, { cancelled: true, reason });
    return { stopped: true };
  }

  /**
   * Holds until the render ends, then returns it with its full log; `credentialEnded` instead when the credential
   * of the waiting request ends first (stream-watch.ts), so the caller answers a 401 and nothing written after.
   */
  async waitForEnd(renderId: string, credential: StreamCredential): Promise<RenderView | null | { credentialEnded: true }> {
    const render = await this.driver.current();
    if (!render || render.id !== renderId) return null;
    if (this.watch.refused(credential)) return { credentialEnded: true };
    if (!isInProgress(render.status)) return this.driver.view(render);
    const held = this.watch.hold(credential);
    try {
      return await Promise.race([this.ends.waitForEnd(renderId), held.ended.then(() => ({ credentialEnded: true as const }))]);
    } finally {
      held.release();
    }
  }

  /**
   * DELETE /renders/<filename>, once the file is gone: from now on the render offers no download. The room's
   * render changes here and writes its row; an older render's row is written directly.
   */
  async forgetFile(renderId: string, filename: string): Promise<void> {
    const db = openDb(this.env.DB);
    this.cache.forget(renderId);
    const render = await this.driver.current();
    if (render && render.id === renderId && render.filename === filename) {
      await this.batch.forgetFile(filename);
      if (render.phase === "ended") await this.driver.apply(fileForgotten(render, Date.now()));
      return;
    }
    await this.batch.forgetFile(filename);
    await writeFileDeleted(db, renderId, Date.now());
  }

  // ── batches (batch-run.ts) ─────────────────────────────────────────────────────────────────────────────────

  /** `firstQuote`: the first row's quote, read by the route beside its project read (none: the row starts without). */
  startBatch(batch: RoomBatch, variables: Record<string, unknown>[], firstQuote?: RenderQuote): Promise<StartBatchResult> {
    return this.batch.start(batch, variables, firstQuote);
  }

  getBatch(): Promise<BatchState | null> {
    return this.batch.state();
  }

  /** DELETE .../batch: the rows not started are cancelled, then the running row's render; `stopped` when it ran. */
  async cancelBatch(reason = "cancelled by the user"): Promise<{ stopped: boolean; batch: BatchState | null }> {
    const cancelled = await this.batch.cancelRows(reason);
    if (cancelled?.runningRender) await this.driver.finish(cancelled.runningRender, { cancelled: true, reason: `the batch was ${reason}` });
    return { stopped: cancelled !== null, batch: await this.batch.state() };
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * GET .../render/events (resumable, see render-feed.ts), forwarded by the Worker with the snapshot payload for a
   * room that never rendered (`none`); GET /api/projects/:slug/events as /project-events.
   */
  async events(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // Every stream is kept with the credential it was opened with, so that credential's end can end it.
    const credential = carriedStreamCredential(request);
    if (!credential) return Response.json({ error: "unauthorized: no credential for this stream" }, { status: 401 });
    let response: Response;
    if (url.pathname === "/project-events") {
      const render = await this.driver.current();
      response = this.feed.subscribeProject(request, credential, render ? publicRenderState(render) : { status: "none" }, await this.batch.state());
    } else {
      response = await this.feed.subscribe(request, credential, async () => {
        const render = await this.driver.current();
        if (render) return { state: this.driver.view(render), ended: !isInProgress(render.status) };
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
  endStreams(end: CredentialEnd): number {
    return this.watch.end(end);
  }

  /** A file was written or deleted (worker/projects/files/announce-files.ts): tell the project's open pages. */
  filesChanged(change: { written?: string[]; deleted?: string[] }): void {
    this.feed.filesChanged(change);
  }
}
