// Page views: a view counts at most once per visitor, page and 30-minute window, and for at most
// PAGES_PER_WINDOW different pages per visitor and window, so neither reloading nor inventing page names inflates
// the counter. The marks of a visitor's earlier windows are dropped as they lapse.
import { and, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { pageViewMarks } from "../db/schema/stats.ts";
import { bumpCounter } from "./counters.ts";

export const VIEW_WINDOW_MS = 30 * 60 * 1000;
export const PAGES_PER_WINDOW = 20;

/** A dashboard address as a page name: "/", "/ideas", "/project" (queries are not part of it); null when it is no path. */
export function pageName(path: string): string | null {
  let page = path.replace(/\.html$/, "").replace(/\/+$/, "") || "/";
  if (page === "/index") page = "/";
  return /^\/[A-Za-z0-9._~/-]{0,99}$/.test(page) ? page : null;
}

/** Counts the view unless this visitor's view of this page was counted in the window; true when it counted. */
export async function countPageView(db: Db, visitorId: string, page: string, now = Date.now()): Promise<boolean> {
  await db.delete(pageViewMarks).where(and(eq(pageViewMarks.visitorId, visitorId), lte(pageViewMarks.countedAt, now - VIEW_WINDOW_MS)));
  // One statement checks the visitor's budget and marks the page, so parallel requests cannot both pass.
  const marked = await db.run(sql`
    INSERT INTO ${pageViewMarks} (visitor_id, page, counted_at)
    SELECT ${visitorId}, ${page}, ${now}
    WHERE (SELECT count(*) FROM ${pageViewMarks} WHERE visitor_id = ${visitorId}) < ${PAGES_PER_WINDOW}
    ON CONFLICT (visitor_id, page) DO NOTHING`);
  const counted = marked.meta.changes === 1;
  if (counted) await bumpCounter(db, "pageViews");
  return counted;
}
