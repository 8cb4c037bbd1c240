// GET /api/stats (public counters) and POST /api/stats/view (the page-view beacon for client-side navigation).
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import * as z from "zod";
import { querySchema, readQuery } from "../http/query.ts";
import { openDb } from "../db/client.ts";
import { users } from "../db/schema/identity.ts";
import { projects } from "../db/schema/projects.ts";
import { counters } from "../db/schema/stats.ts";
import type { AppEnv } from "../http/context.ts";
import { recordPageView, visitorCounts } from "../stats/visits.ts";

/** POST /api/stats/view: `?page=<path>` names the dashboard page viewed. */
export const pageViewQuery = querySchema({ page: z.string().max(2000).optional() });

export const statsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const db = openDb(c.env.DB);
    const [rows, visits, userCount, projectCount] = await Promise.all([
      db.select().from(counters).all(),
      visitorCounts(c),
      db.select({ n: sql<number>`count(*)` }).from(users).get(),
      db.select({ n: sql<number>`count(*)` }).from(projects).get(),
    ]);
    const counter = (name: string) => rows.find((r) => r.name === name)?.value ?? 0;
    return c.json({
      pageViews: counter("pageViews"),
      uniqueVisitors: visits.uniqueVisitors,
      returningVisitors: visits.returningVisitors,
      animationsCreated: counter("animationsCreated"),
      animationsNow: projectCount?.n ?? 0,
      rendersCompleted: counter("rendersCompleted"),
      users: userCount?.n ?? 0,
    });
  })
  // ?page=<path> names the dashboard page viewed (default "/"); `recorded` says whether the view counted.
  .post("/view", async (c) => c.json({ recorded: await recordPageView(c, readQuery(c, pageViewQuery).page ?? "/") }));
