// Anonymous visitors and their page views. The visitor cookie holds a random id, signed (visitor-cookie.ts); no IP
// address or user agent is read or stored. Each counter counts a client once per its rule:
// - uniqueVisitors: a visitor is recorded only when their signed cookie comes back, so a client that never returns
//   it (or forges one) mints nobody;
// - returningVisitors: a recorded visitor whose visit comes 30 minutes or more after their last one, once;
// - pageViews: once per visitor, page and 30-minute window (page-views.ts); no cookie, no view.
import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { Db } from "../db/client.ts";
import { rawStatement } from "../db/raw-statement.ts";
import { writeDb } from "../db/read-session.ts";
import { visitors } from "../db/schema/stats.ts";
import type { AppEnv } from "../http/context.ts";
import { tokenSecret } from "../http/config.ts";
import { setPrivateCookie } from "../http/cookies.ts";
import { pageName, pageViewStatements, viewCounted } from "./page-views.ts";
import { legacyVisitorId, signVisitorId, verifiedVisitorId } from "./visitor-cookie.ts";

export const VISITOR_COOKIE = "studio_visitor";
export const RETURN_AFTER_MS = 30 * 60 * 1000;
const COOKIE_MAX_AGE_S = 400 * 86_400;

async function isKnownVisitor(db: Db, id: string): Promise<boolean> {
  return (await db.select({ id: visitors.id }).from(visitors).where(eq(visitors.id, id)).get()) !== undefined;
}

/** The statement recording a visit: a new visitor, or a returning one's visit counted after RETURN_AFTER_MS. */
function recordVisit(db: Db, id: string, now: number): D1PreparedStatement {
  return rawStatement(
    db,
    db
      .insert(visitors)
      .values({ id, firstSeen: now, lastSeen: now, visits: 1 })
      .onConflictDoUpdate({
        target: visitors.id,
        set: {
          visits: sql`${visitors.visits} + (CASE WHEN ${now} - ${visitors.lastSeen} >= ${RETURN_AFTER_MS} THEN 1 ELSE 0 END)`,
          lastSeen: now,
        },
      }),
  );
}

/**
 * A page view of `path` (the request's own path for a page load). Without a genuine cookie the client is given one
 * and nothing is counted yet. Returns whether a page view was counted. The cookie is signed with a key from
 * TOKEN_SECRET, which the configuration requires (worker/config/settings.ts).
 */
export async function recordPageView(c: Context<AppEnv>, path = new URL(c.req.url).pathname): Promise<boolean> {
  const secret = tokenSecret(c.env);
  const db = writeDb(c);
  const cookie = getCookie(c, VISITOR_COOKIE);
  let id = await verifiedVisitorId(secret, cookie);
  if (!id) {
    const legacy = legacyVisitorId(cookie);
    id = legacy && (await isKnownVisitor(db, legacy)) ? legacy : null;
    const issued = id ?? crypto.randomUUID();
    setPrivateCookie(c, VISITOR_COOKIE, await signVisitorId(secret, issued), { path: "/", maxAgeSeconds: COOKIE_MAX_AGE_S });
    if (!id) return false;
  }
  const now = Date.now();
  const page = pageName(path);
  // The visit and the view in one batch: one round trip, in the request's write session (its bookmark is answered).
  const results = await db.$client.batch([recordVisit(db, id, now), ...(page === null ? [] : pageViewStatements(db, id, page, now))]);
  return page !== null && viewCounted(results.slice(1));
}
