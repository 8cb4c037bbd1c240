// Page views and anonymous visitors. The visitor cookie holds a random id and nothing else; no IP address or
// user agent is read or stored. A visit that comes 30 minutes or more after the last one makes a returning visitor.
import { setPrivateCookie } from "../http/cookies.ts";
import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { openDb } from "../db/client.ts";
import { visitors } from "../db/schema/stats.ts";
import type { AppEnv } from "../http/context.ts";
import { bumpCounter } from "./counters.ts";

export const VISITOR_COOKIE = "studio_visitor";
export const RETURN_AFTER_MS = 30 * 60 * 1000;
const VISITOR_ID = /^[A-Za-z0-9-]{16,64}$/;

export async function recordPageView(c: Context<AppEnv>): Promise<void> {
  const db = openDb(c.env.DB);
  const now = Date.now();
  const known = getCookie(c, VISITOR_COOKIE);
  const id = known && VISITOR_ID.test(known) ? known : crypto.randomUUID();
  await Promise.all([
    bumpCounter(db, "pageViews"),
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
  ]);
  if (id !== known) {
    setPrivateCookie(c, VISITOR_COOKIE, id, { path: "/", maxAgeSeconds: 400 * 86_400 });
  }
}

export async function visitorCounts(c: Context<AppEnv>) {
  const db = openDb(c.env.DB);
  const row = await db
    .select({
      unique: sql<number>`count(*)`,
      returning: sql<number>`coalesce(sum(CASE WHEN ${visitors.visits} > 1 THEN 1 ELSE 0 END), 0)`,
    })
    .from(visitors)
    .get();
  return { uniqueVisitors: row?.unique ?? 0, returningVisitors: row?.returning ?? 0 };
}

