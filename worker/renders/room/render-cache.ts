// The render cache of one project (issue 35, point 1), in its room's SQLite: for each key of inputs
// (render-inputs.ts), the latest done render with that key, what a reuse copies (its file, its poster) and its log
// (so the reuse shows its findings). A project is one user's, so a room's cache is never shared across users or
// projects. Only done renders are recorded; a render whose file is deleted is forgotten (and a reuse checks the file
// is there before it copies it). Bounded: the oldest entries go past MAX_ENTRIES.
import type { RenderPlan } from "../../../core/protocol/render-plan.ts";
import type { EndedRender, PosterOutcome } from "../state.ts";

const MAX_ENTRIES = 50;
/** A log longer than this keeps its first lines (where a page's findings are told) and says how many were left out. */
const MAX_CARRIED_LINES = 500;

/** A done render as a later render with the same inputs reuses it. */
export interface CachedRender {
  renderId: string;
  filename: string;
  size: number;
  poster: PosterOutcome | null;
  plan: RenderPlan | null;
  /** Its log, findings and warnings included (render-feed.ts), carried over to the render that reuses it. */
  lines: string[];
}

/** A log as an entry keeps it: its first MAX_CARRIED_LINES lines, and a line saying how many more there were. */
function carriedLines(lines: readonly string[]): string[] {
  if (lines.length <= MAX_CARRIED_LINES) return [...lines];
  return [...lines.slice(0, MAX_CARRIED_LINES), `(${lines.length - MAX_CARRIED_LINES} more lines of that render's log not kept)`];
}

export class RenderCache {
  constructor(private readonly sql: SqlStorage) {
    this.createTable();
  }

  private createTable(): void {
    this.sql.exec("CREATE TABLE IF NOT EXISTS render_cache (key TEXT PRIMARY KEY, render_id TEXT NOT NULL, entry TEXT NOT NULL, at INTEGER NOT NULL)");
  }

  /** The done render recorded for `key`, or null. */
  find(key: string): CachedRender | null {
    const row = this.sql.exec<{ entry: string }>("SELECT entry FROM render_cache WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.entry) as CachedRender) : null;
  }

  /** Records a done render under its key (replacing an older one with the same inputs); others are not recorded. */
  record(render: EndedRender, lines: readonly string[]): void {
    if (!render.cacheKey || render.status !== "done" || !("ok" in render.outcome) || !render.outcome.ok || render.deletedAt) return;
    const entry: CachedRender = {
      renderId: render.id,
      filename: render.filename,
      size: render.outcome.size,
      poster: render.outcome.poster ?? null,
      plan: render.plan,
      lines: carriedLines(lines),
    };
    this.sql.exec("INSERT OR REPLACE INTO render_cache (key, render_id, entry, at) VALUES (?, ?, ?, ?)", render.cacheKey, render.id, JSON.stringify(entry), render.doneAt);
    this.sql.exec("DELETE FROM render_cache WHERE key NOT IN (SELECT key FROM render_cache ORDER BY at DESC LIMIT ?)", MAX_ENTRIES);
  }

  /** The render's file was deleted (or found missing): it is never reused. */
  forget(renderId: string): void {
    this.sql.exec("DELETE FROM render_cache WHERE render_id = ?", renderId);
  }

  /** After the room's storage was deleted (the project with it): the table again, empty. */
  reset(): void {
    this.createTable();
  }
}
