// The live pieces of a project's ended renders (../live/), kept a while and then removed by the room's alarm. A player
// polling the live playlist as a render ends gets the pieces it has with EXT-X-ENDLIST, not a 404, for
// LIVE_GRACE_MS after the end; then the alarm lists the render's prefix and deletes whatever is there, so a piece
// whose upload finished in the instant the render ended goes too (after it stored a piece the upload route asks the
// room whether the render still wants it, and removes it itself when not: farm/node-upload-routes.ts, node-calls.ts
// `keepsUpload`). A render is looked at once it is stored as ended and its jobs are ended in D1, so no upload
// starts after that look: a render with no piece then needs no sweep (a piece stored after the look is one whose
// upload finds the render ended and removes it). Kept in the room's SQLite.
import { logEvent } from "../../http/log.ts";
import { deleteLivePieces, hasLivePieces } from "../live/live-pieces.ts";

/** How long an ended render's live playlist and pieces stay readable: far longer than a player's next reload. */
export const LIVE_GRACE_MS = 60_000;
/** A sweep that failed (R2 answered an error) is tried again this much later. */
const RETRY_MS = 10_000;

type DueSweep = {
  render_id: string;
  user_id: string;
};

export class LiveSweeps {
  constructor(
    private readonly sql: SqlStorage,
    private readonly bucket: R2Bucket,
  ) {
    this.createTable();
  }

  private createTable(): void {
    this.sql.exec("CREATE TABLE IF NOT EXISTS live_sweeps (render_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, at INTEGER NOT NULL)");
  }

  /** The render's pieces, if it has any, go at `at` (its end, once its jobs are ended in D1, plus LIVE_GRACE_MS). */
  async schedule(userId: string, renderId: string, at: number): Promise<void> {
    const any = await hasLivePieces(this.bucket, userId, renderId).catch((error: unknown) => {
      logEvent("warn", "render.live_look_failed", { renderId, error, answer: "a sweep is scheduled all the same" });
      return true;
    });
    if (!any) return;
    this.sql.exec("INSERT OR REPLACE INTO live_sweeps (render_id, user_id, at) VALUES (?, ?, ?)", renderId, userId, at);
  }

  /** When the next sweep is due, or null when none is scheduled. */
  nextAt(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(at) AS at FROM live_sweeps").toArray()[0]?.at ?? null;
  }

  /** Sets the room's alarm for the next sweep unless it is set earlier already (the watchdog's, a retry's). */
  async arm(storage: DurableObjectStorage): Promise<void> {
    const next = this.nextAt();
    if (next === null) return;
    const current = await storage.getAlarm();
    if (current === null || current > next) await storage.setAlarm(next);
  }

  /** Deletes the pieces of every render whose sweep is due at `now` (all of them with `all`). A sweep that fails is
   * tried again RETRY_MS later. */
  async sweepDue(now: number, all = false): Promise<void> {
    const due = this.sql.exec<DueSweep>("SELECT render_id, user_id FROM live_sweeps WHERE ? OR at <= ?", all ? 1 : 0, now).toArray();
    for (const sweep of due) {
      try {
        await deleteLivePieces(this.bucket, sweep.user_id, sweep.render_id);
        this.sql.exec("DELETE FROM live_sweeps WHERE render_id = ?", sweep.render_id);
      } catch (error) {
        logEvent("error", "render.live_sweep_failed", { renderId: sweep.render_id, error, retry: "alarm" });
        this.sql.exec("UPDATE live_sweeps SET at = ? WHERE render_id = ?", now + RETRY_MS, sweep.render_id);
      }
    }
  }

  /** After the room's storage was deleted (the project with it): the table again, empty. */
  reset(): void {
    this.createTable();
  }
}
