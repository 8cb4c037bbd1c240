// Page views: a view counts at most once per visitor, page and 30-minute window, and for at most
// PAGES_PER_WINDOW different pages per visitor and window, so neither reloading nor inventing page names inflates
// the counter. The marks of a visitor's earlier windows are dropped as they lapse. The three steps are statements
// of one batch (one round trip, one transaction), run after the visit is recorded (visits.ts).
import { and, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rawStatement } from "../db/raw-statement.ts";
import { counters, pageViewMarks } from "../db/schema/stats.ts";

export const VIEW_WINDOW_MS = 30 * 60 * 1000;
export const PAGES_PER_WINDOW = 20;

/** A dashboard address as a page name: "/", "/ideas", "/project" (queries are not part of it); null when it is no path. */
export function pageName(path: string): string | null {
  let page = path.replace(/\.html$/, "").replace(/\/+$/, "") || "/";
  if (page === "/index") page = "/";
  return /^\/[A-Za-z0-9._~/-]{0,99}$/.test(page) ? page : null;
}

/** The statements that count the view unless this visitor's view of this page was counted in the window. */
export function pageViewStatements(db: Db, visitorId: string, page: string, now = Date.now()): D1PreparedStatement[] {
  return [
    rawStatement(db, db.delete(pageViewMarks).where(and(eq(pageViewMarks.visitorId, visitorId), lte(pageViewMarks.countedAt, now - VIEW_WINDOW_MS)))),
    // One statement checks the visitor's budget and marks the page, so parallel requests cannot both pass.
    rawStatement(
      db,
      sql`
      INSERT INTO ${pageViewMarks} (visitor_id, page, counted_at)
      SELECT ${visitorId}, ${page}, ${now}
      WHERE (SELECT count(*) FROM ${pageViewMarks} WHERE visitor_id = ${visitorId}) < ${PAGES_PER_WINDOW}
      ON CONFLICT (visitor_id, page) DO NOTHING`,
    ),
    // changes() is the rows the mark just inserted (the batch runs its statements in order on one connection): the
    // counter moves only when the view was marked.
    rawStatement(
      db,
      sql`
      INSERT INTO ${counters} (name, value) SELECT 'pageViews', 1 WHERE changes() = 1
      ON CONFLICT (name) DO UPDATE SET value = value + 1`,
    ),
  ];
}

/** Whether the view counted, from the results of pageViewStatements (in order, wherever they sat in the batch). */
export function viewCounted(results: D1Result[]): boolean {
  return results[1]?.meta.changes === 1;
}
