// GET /api/metrics — public numbers of the idea board, read in the request's D1 session (a nearby replica may answer).
import { Hono } from "hono";
import { answerBookmark, readDb } from "../db/read-session.ts";
import type { AppEnv } from "../http/context.ts";
import { route } from "../http/route.ts";
import { json } from "../openapi/operation.ts";
import { ideaMetrics } from "./metrics.ts";
import { metrics } from "./shapes.ts";

export const metricsRoutes = new Hono<AppEnv>().use(answerBookmark).get(
  "/",
  route(
    { operationId: "getMetrics", summary: "Idea-board metrics", tag: "ideas", access: "public", bookmark: true, responses: () => ({ 200: json(metrics(), "the numbers") }) },
    async (c) => c.json(await ideaMetrics(readDb(c))),
  ),
);
