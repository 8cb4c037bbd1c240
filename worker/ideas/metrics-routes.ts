// GET /api/metrics — public numbers of the idea board, read in the request's D1 session (a nearby replica may answer).
import { Hono } from "hono";
import { answerBookmark, readDb } from "../db/read-session.ts";
import type { AppEnv } from "../http/context.ts";
import { ideaMetrics } from "./metrics.ts";

export const metricsRoutes = new Hono<AppEnv>().use(answerBookmark).get("/", async (c) => c.json(await ideaMetrics(readDb(c))));
