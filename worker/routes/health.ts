import { Hono } from "hono";
import type { AppEnv } from "../http/context.ts";

export const healthRoutes = new Hono<AppEnv>().get("/health", (c) =>
  c.json({ ok: true }),
);
