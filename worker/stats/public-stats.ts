// GET /api/stats: the public counters, visitors, users and animations, read in one batch (one round trip, which a
// nearby replica may answer when db is the request's read session).
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { users } from "../db/schema/identity.ts";
import { projects } from "../db/schema/projects.ts";
import { counters, visitors } from "../db/schema/stats.ts";

export async function publicStats(db: Db) {
  const [rows, visits, userCount, projectCount] = await db.batch([
    db.select().from(counters),
    db
      .select({
        unique: sql<number>`count(*)`,
        returning: sql<number>`coalesce(sum(CASE WHEN ${visitors.visits} > 1 THEN 1 ELSE 0 END), 0)`,
      })
      .from(visitors),
    db.select({ n: sql<number>`count(*)` }).from(users),
    db.select({ n: sql<number>`count(*)` }).from(projects),
  ]);
  const counter = (name: string) => rows.find((r) => r.name === name)?.value ?? 0;
  return {
    pageViews: counter("pageViews"),
    uniqueVisitors: visits[0]?.unique ?? 0,
    returningVisitors: visits[0]?.returning ?? 0,
    animationsCreated: counter("animationsCreated"),
    animationsNow: projectCount[0]?.n ?? 0,
    rendersCompleted: counter("rendersCompleted"),
    users: userCount[0]?.n ?? 0,
  };
}
