// GET /api/stats (public counters) and POST /api/stats/view (the page-view beacon for client-side navigation).
// The counters are read in the request's D1 session (a nearby replica may answer; worker/db/read-session.ts).
import { Hono } from "hono";
import * as z from "zod";
import { querySchema, readQuery } from "../http/query.ts";
import { answerBookmark, readDb } from "../db/read-session.ts";
import type { AppEnv } from "../http/context.ts";
import { publicStats } from "./public-stats.ts";
import { recordPageView } from "./visits.ts";

/** POST /api/stats/view: `?page=<path>` names the dashboard page viewed. */
export const pageViewQuery = querySchema({ page: z.string().max(2000).optional() });

export const statsRoutes = new Hono<AppEnv>()
  .use(answerBookmark)
  .get("/", async (c) => c.json(await publicStats(readDb(c))))
  // ?page=<path> names the dashboard page viewed (default "/"); `recorded` says whether the view counted.
  .post("/view", async (c) => c.json({ recorded: await recordPageView(c, readQuery(c, pageViewQuery).page ?? "/") }));
