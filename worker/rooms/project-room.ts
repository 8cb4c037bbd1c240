// One ProjectRoom per (user, project): the render state machine of the API reference (one render at a time),
// its log, waiters for `wait`, the watchdog (lease lapses and the wall-clock limit), and the live event stream.
import { DurableObject } from "cloudflare:workers";
import { renderFilename, type RenderOptions } from "../../core/render/render-options.ts";
import { openDb } from "../db/client.ts";
import type { Env } from "../env.ts";
import { endJob, enqueueJob, findJob, leaseMs } from "../jobs/queue.ts";
import { isInProgress, publicRenderState, type Progress, type PublicRenderState, type RoomRender } from "../renders/state.ts";
import { filenameTaken, insertRenderWithin, updateRender } from "../renders/store.ts";
import { maxRenderMs, wallClockError } from "../limits/render-wall-clock.ts";
import { capOf } from "../limits/work-caps.ts";
import { bumpCounter } from "../stats/counters.ts";
import { EventHub } from "./event-hub.ts";

const MAX_LINES = 10_000;
const NO_NODE_NOTICE_MS = 20_000;
/** Rows still "in progress" this long past the wall-clock limit are stale (their room never ended them). */
const STALE_AFTER_LIMIT_MS = 60_000;

export type RenderView = PublicRenderState & { lines: string[] };
export type Outcome = { ok: true; size: number } | { ok: false; error: string } | { cancelled: true; reason: string };
/** `atCap`: the user already has their limit of renders in progress elsewhere; nothing was started. */
export type StartResult = { started: boolean; view: RenderView } | { atCap: true };

export class ProjectRoom extends DurableObject<Env> {
  private readonly hub = new EventHub();
  /** The project's own stream (GET /api/projects/:slug/events): file changes; it stays open across renders. */
  private readonly projectHub = new EventHub();
  private readonly waiters = new Map<string, Array<(view: RenderView) => void>>();
  /** Renders whose finish is under way: finish awaits D1, and a second finish meanwhile must not run. */
  private readonly finishing = new Set<string>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS lines (seq INTEGER PRIMARY KEY AUTOINCREMENT, render_id TEXT NOT NULL, text TEXT NOT NULL)");
  }

  // ── reading ────────────────────────────────────────────────────────────────────────────────────────────────

  private async current(): Promise<RoomRender | null> {
    return (await this.ctx.storage.get<RoomRender>("render")) ?? null;
  }

  private linesOf(renderId: string): string[] {
    return this.ctx.storage.sql
      .exec<{ text: string }>("SELECT text FROM lines WHERE render_id = ? ORDER BY seq", renderId)
      .toArray()
      .map((r) => r.text);
  }

  private view(render: RoomRender): RenderView {
    return { ...publicRenderState(render), lines: this.linesOf(render.id) };
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
    while (await filenameTaken(db, render.userId, render.filename)) {
      render.filename = renderFilename(render.slug, render.options.format, new Date(Date.parse(filenameTime(render.filename)) + 1000));
    }
    const row = {
      id: render.id,
      userId: render.userId,
      slug: render.slug,
      filename: render.filename,
      format: render.options.format,
      status: render.status,
      size: null,
      lastLine: null,
      startedAt: render.startedAt,
      doneAt: null,
      deletedAt: null,
    };
    const staleBefore = Date.now() - maxRenderMs(this.env) - STALE_AFTER_LIMIT_MS;
    if (!(await insertRenderWithin(db, row, capOf(this.env, "render"), staleBefore))) {
      if (existing) await this.ctx.storage.put("render", existing);
      else await this.ctx.storage.delete("render");
      return { atCap: true };
    }
    // Only the latest render's log is kept; earlier renders keep their files and D1 rows.
    this.ctx.storage.sql.exec("DELETE FROM lines WHERE render_id != ?", render.id);
    await this.ctx.storage.put("render", render);
    // The watchdog runs from the start, so even a render whose job never got queued ends.
    await this.ctx.storage.setAlarm(Date.now() + this.watchdogMs());
    this.hub.broadcast("start", publicRenderState(render));
    await this.appendLines(render.id, [`render queued: ${describeOptions(render.options)} → ${render.filename}`]);
    if (failWith) {
      await this.appendLines(render.id, failWith);
      await this.finish(render.id, { ok: false, error: "lint errors (strict): fix them or render without strict" });
    } else {
      await enqueueJob(db, { id: render.id, userId: render.userId, slug: render.slug, kind: "render", options: render.options });
    }
    return { started: true, view: this.view((await this.current()) ?? render) };
  }

  /** Appends log lines (from the node or the Worker). Returns whether the node should stop. */
  async appendLines(renderId: string, lines: string[], progress?: Progress | null): Promise<{ cancelled: boolean }> {
    const render = await this.current();
    if (!render || render.id !== renderId || !isInProgress(render.status)) return { cancelled: true };
    for (const line of lines) {
      this.ctx.storage.sql.exec("INSERT INTO lines (render_id, text) VALUES (?, ?)", renderId, line);
    }
    this.ctx.storage.sql.exec(
      "DELETE FROM lines WHERE seq <= (SELECT max(seq) FROM lines) - ?",
      MAX_LINES,
    );
    const last = lines.at(-1);
    if (last !== undefined) render.lastLine = last;
    if (progress !== undefined) render.progress = progress;
    await this.ctx.storage.put("render", render);
    for (const line of lines) {
      this.hub.broadcast("line", { line, status: render.status, progress: render.progress });
    }
    return { cancelled: false };
  }

  /** A render node took the job. */
  async markRendering(renderId: string, nodeName: string): Promise<void> {
    const render = await this.current();
    if (!render || render.id !== renderId || render.status !== "queued") return;
    render.status = "rendering";
    await this.ctx.storage.put("render", render);
    await updateRender(openDb(this.env.DB), render.id, { status: "rendering" });
    await this.appendLines(renderId, [`render node ${nodeName} started the render`]);
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
    // D1 first: GET /api/renders lists the file before any render state offers its downloadUrl.
    const db = openDb(this.env.DB);
    await updateRender(db, render.id, { status: render.status, doneAt: now, lastLine: line, size: render.size });
    await this.ctx.storage.put("render", render);
    if (render.status === "done") await bumpCounter(db, "rendersCompleted");
    const view = this.view(render);
    this.hub.broadcast("end", publicRenderState(render));
    for (const resolve of this.waiters.get(renderId) ?? []) resolve(view);
    this.waiters.delete(renderId);
    await this.ctx.storage.deleteAlarm();
    return view;
  }

  /** DELETE .../render: `{ stopped }` is true when a render was in progress and is now cancelled. */
  async cancel(reason = "cancelled by the user"): Promise<{ stopped: boolean }> {
    const render = await this.current();
    if (!render || !isInProgress(render.status)) return { stopped: false };
    await endJob(openDb(this.env.DB), render.id, "cancelled", { error: reason });
    await this.finish(render.id, { cancelled: true, reason });
    return { stopped: true };
  }

  /** DELETE /renders/<filename> of this project's latest render: from now on it offers no download. */
  async forgetFile(filename: string): Promise<void> {
    const render = await this.current();
    if (!render || render.filename !== filename || render.deletedAt) return;
    render.deletedAt = Date.now();
    await this.ctx.storage.put("render", render);
  }

  /** Holds until the render ends, then returns it with its full log. */
  async waitForEnd(renderId: string): Promise<RenderView | null> {
    const render = await this.current();
    if (!render || render.id !== renderId) return null;
    if (!isInProgress(render.status)) return this.view(render);
    return new Promise((resolve) => {
      const list = this.waiters.get(renderId) ?? [];
      list.push(resolve);
      this.waiters.set(renderId, list);
    });
  }

  /** Before the project is deleted: stop the render, end the streams, forget the log. */
  async stopAll(): Promise<{ stopped: boolean }> {
    const result = await this.cancel("the project was deleted");
    this.hub.closeAll();
    this.projectHub.closeAll();
    await this.ctx.storage.deleteAll();
    return result;
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────────────────────

  /** GET .../render/events, forwarded by the Worker with the snapshot payload for a room that never rendered. */
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname === "/project-events") return this.projectHub.subscribe(": project events\n\n", request.signal);
    const render = await this.current();
    const none = new URL(request.url).searchParams.get("none");
    const snapshot = render ? this.view(render) : JSON.parse(none ?? '{"status":"none","recent":[]}');
    return this.hub.subscribe(`event: snapshot\ndata: ${JSON.stringify(snapshot)}\n\n`, request.signal);
  }

  /** A file was written or deleted (worker/files/announce-files.ts): tell the project's open pages. */
  async filesChanged(change: { written?: string[]; deleted?: string[] }): Promise<void> {
    this.projectHub.broadcast("files", { written: change.written ?? [], deleted: change.deleted ?? [] });
  }

  // ── watchdog ───────────────────────────────────────────────────────────────────────────────────────────────

  private watchdogMs(): number {
    return Math.min(5000, leaseMs(this.env));
  }

  /**
   * A node that died lets its lease lapse, and a render that runs past the wall-clock limit is stopped: either way
   * the render fails with a line saying why (and its job ends, so a node still holding it is told to stop at its
   * next progress post); it never stays in progress.
   */
  async alarm(): Promise<void> {
    const render = await this.current();
    if (!render || !isInProgress(render.status)) return;
    const db = openDb(this.env.DB);
    const job = await findJob(db, render.id);
    const now = Date.now();
    if (!job || job.status === "cancelled") {
      await this.finish(render.id, { cancelled: true, reason: "the job was withdrawn" });
      return;
    }
    const deadline = render.startedAt + maxRenderMs(this.env);
    if (now >= deadline) {
      const error = wallClockError(this.env);
      // A job that already ended has its completion on the way; should it never arrive, the render fails anyway.
      if ((await endJob(db, render.id, "failed", { error })) || now >= deadline + STALE_AFTER_LIMIT_MS) {
        await this.finish(render.id, { ok: false, error });
      } else {
        await this.ctx.storage.setAlarm(now + this.watchdogMs());
      }
      return;
    }
    if (job.status === "running" && (job.leaseExpiresAt ?? 0) < now) {
      const seconds = Math.round(leaseMs(this.env) / 1000);
      const error = `render node stopped responding (no progress for ${seconds} s); the render was given up`;
      if (await endJob(db, render.id, "failed", { error })) await this.finish(render.id, { ok: false, error });
      return;
    }
    if (job.status === "queued" && now - render.startedAt > NO_NODE_NOTICE_MS && !(await this.ctx.storage.get(`noticed:${render.id}`))) {
      await this.ctx.storage.put(`noticed:${render.id}`, true);
      await this.appendLines(render.id, ["still waiting for a render node to pick this render up"]);
    }
    await this.ctx.storage.setAlarm(Math.min(now + this.watchdogMs(), deadline));
  }
}

function describeOptions(o: RenderOptions): string {
  const parts = [`format ${o.format}`, `quality ${o.quality}`, `fps ${o.fps ?? 30}`];
  if (o.resolution) parts.push(`resolution ${o.resolution}`);
  if (o.composition !== "index.html") parts.push(`composition ${o.composition}`);
  return parts.join(", ");
}

/** "slug_2026-01-02_03-04-05.mp4" → "2026-01-02T03:04:05Z" */
function filenameTime(filename: string): string {
  const m = /_(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})-(\d{2})\.[a-z0-9]+$/.exec(filename);
  return m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}Z` : new Date().toISOString();
}
