// GET /api/stats (public counters) and POST /api/stats/view (the page-view beacon for client-side navigation).
// The counters are read in the request's D1 session (a nearby replica may answer; worker/db/read-session.ts).
import { Hono } from "hono";
import * as z from "zod";
import { querySchema } from "../http/query.ts";
import { route } from "../http/route.ts";
import { json } from "../openapi/operation.ts";
import { answerBookmark, readDb } from "../db/read-session.ts";
import type { AppEnv } from "../http/context.ts";
import { publicStats } from "./public-stats.ts";
import { recordPageView } from "./visits.ts";
import { publicStatsShape } from "./shapes.ts";

export const statsRoutes = new Hono<AppEnv>()
  .use(answerBookmark)
  .get(
    "/",
    route(
      {
        operationId: "getStats", summary: "Public counters", tag: "studio", access: "public", bookmark: true,
        responses: () => ({ 200: json(publicStatsShape(), "counters") }),
      },
      async (c) => c.json(await publicStats(readDb(c))),
    ),
  )
  // ?page=<path> names the dashboard page viewed (default "/"); `recorded` says whether the view counted.
  .post(
    "/view",
    route(
      {
        operationId: "recordPageView", summary: "Page-view beacon; counts once per visitor, page and 30 minutes", tag: "studio", access: "public", bookmark: true,
        request: () => ({ query: querySchema({ page: z.string().max(2000).optional() }) }),
        responses: () => ({ 200: json(z.object({ recorded: z.boolean() }), "whether the view counted") }),
      },
      async (c, input) => c.json({ recorded: await recordPageView(c, input.query().page ?? "/") }),
    ),
  );
