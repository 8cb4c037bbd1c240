// GET /api/metrics — public numbers of the idea board.
import { Hono } from "hono";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { ideaMetrics } from "../ideas/metrics.ts";

export const metricsRoutes = new Hono<AppEnv>().get("/", async (c) => c.json(await ideaMetrics(openDb(c.env.DB))));
