// What a ProjectRoom tells, kept apart from what it decides (render-driver.ts): the latest render's log lines (in the
// room's SQLite, at most MAX_LINES), its numbered events (start, line, end) that a stream resumes from with
// Last-Event-ID, the render's own event stream, and the project's stream (file changes, and each render's start and
// end, so a page follows renders whoever started them). The room calls it after each decision; nothing here changes
// a render's state.
import type { StreamCredential } from "../../auth/stream-credential.ts";
import { EventHub, formatEvent } from "./event-hub.ts";
import { EventLog } from "./event-log.ts";

const MAX_LINES = 10_000;

export class RenderFeed {
  private readonly hub: EventHub;
  /** The project's own stream (GET /api/projects/:slug/events): file changes and render starts and ends; it stays
   * open across renders. */
  private readonly projectHub: EventHub;
  private events: EventLog;

  /** `refused`: a credential that ended opens no stream (stream-watch.ts). */
  constructor(
    private readonly sql: SqlStorage,
    refused: (credential: StreamCredential) => boolean,
  ) {
    this.hub = new EventHub(refused);
    this.projectHub = new EventHub(refused);
    this.events = this.createTables();
  }

  private createTables(): EventLog {
    this.sql.exec("CREATE TABLE IF NOT EXISTS lines (seq INTEGER PRIMARY KEY AUTOINCREMENT, render_id TEXT NOT NULL, text TEXT NOT NULL)");
    return new EventLog(this.sql);
  }

  /** Numbers the event, keeps it for resuming streams, and sends it to every open stream. */
  private emit(event: "start" | "line" | "end", data: unknown): void {
    this.hub.broadcast(event, data, this.events.append(event, data));
  }

  linesOf(renderId: string): string[] {
    return this.sql
      .exec<{ text: string }>("SELECT text FROM lines WHERE render_id = ? ORDER BY seq", renderId)
      .toArray()
      .map((r) => r.text);
  }

  /** A render started: only its log is kept from now on (earlier renders keep their files and D1 rows). */
  started(renderId: string, state: unknown): void {
    this.sql.exec("DELETE FROM lines WHERE render_id != ?", renderId);
    this.emit("start", state);
    this.projectHub.broadcast("render", state);
  }

  /** Stores the lines (dropping the oldest past MAX_LINES) and sends each with the render's status and progress. */
  lines(renderId: string, lines: string[], meta: { status: string; progress: unknown; queue?: unknown }): void {
    for (const line of lines) this.sql.exec("INSERT INTO lines (render_id, text) VALUES (?, ?)", renderId, line);
    this.sql.exec("DELETE FROM lines WHERE seq <= (SELECT max(seq) FROM lines) - ?", MAX_LINES);
    for (const line of lines) this.emit("line", { line, ...meta });
  }

  /** The render ended: the `end` event, then its streams close (a client reconnects with Last-Event-ID to follow
   * the next render). */
  ended(state: unknown): void {
    this.emit("end", state);
    this.hub.closeAll();
    this.projectHub.broadcast("render", state);
  }

  /**
   * A render event stream. A client that sends Last-Event-ID (EventSource does on reconnect) gets the events it
   * missed instead of the snapshot, and the stream closes at once if those include the render's end; otherwise
   * `snapshot()` comes first, carrying the newest event id, and when it shows an ended render the stream closes
   * right after it (`curl -N` on a finished render gets its final state, not a wait for the next render; an
   * EventSource reconnects with that id and so follows the next render).
   */
  async subscribe(request: Request, credential: StreamCredential, snapshot: () => Promise<{ state: unknown; ended: boolean }>): Promise<Response> {
    const url = new URL(request.url);
    const lastId = request.headers.get("Last-Event-ID") ?? url.searchParams.get("lastEventId");
    const missed = lastId !== null && /^\d+$/.test(lastId.trim()) ? this.events.since(Number(lastId.trim())) : null;
    if (missed) {
      const text = missed.map((e) => `id: ${e.id}\nevent: ${e.event}\ndata: ${e.data}\n\n`).join("");
      return this.hub.subscribe(text || ": resumed\n\n", request.signal, { credential, closeAfterFirst: missed.some((e) => e.event === "end") });
    }
    const { state, ended } = await snapshot();
    return this.hub.subscribe(formatEvent("snapshot", state, this.events.latestId()), request.signal, { credential, closeAfterFirst: ended });
  }

  /** The project's stream opens with a `render` event carrying `current` (the current or last render, without its
   * log), then a `batch` event with the current or last batch if there is one, so a page that (re)connects picks
   * up a render or batch that started or ended while it was away. */
  subscribeProject(request: Request, credential: StreamCredential, current: unknown, batch: unknown): Response {
    const first = formatEvent("render", current) + (batch ? formatEvent("batch", batch) : "");
    return this.projectHub.subscribe(first, request.signal, { credential });
  }

  /** A batch started, one of its rows started or ended, or it ended (batch-run.ts). */
  batchChanged(state: unknown): void {
    this.projectHub.broadcast("batch", state);
  }

  /** A file was written or deleted (worker/projects/files/announce-files.ts): tell the project's open pages. */
  filesChanged(change: { written?: string[]; deleted?: string[] }): void {
    this.projectHub.broadcast("files", { written: change.written ?? [], deleted: change.deleted ?? [] });
  }

  /** The credentials of every open stream (render and project), for the backstop's check (stream-watch.ts). */
  streamCredentials(): StreamCredential[] {
    return [...this.hub.credentials(), ...this.projectHub.credentials()];
  }

  /** Ends the streams whose credential `ends` names; how many ended. */
  endStreamsWhere(ends: (credential: StreamCredential) => boolean, why: string): number {
    return this.hub.endWhere(ends, why) + this.projectHub.endWhere(ends, why);
  }

  /** The project is being deleted: every stream ends; call `reset` once the room's storage is cleared. */
  closeAll(): void {
    this.hub.closeAll();
    this.projectHub.closeAll();
  }

  /** After the room's storage was deleted: the tables again, empty. */
  reset(): void {
    this.events = this.createTables();
  }
}
