// Assembles the Hono app: CORS, errors, every resource's routes, and the dashboard's static pages.
import { Hono } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "./http/context.ts";
import { handleError, notFound } from "./http/errors.ts";
import { healthRoutes } from "./routes/health.ts";

export function createApp() {
  const app = new Hono<AppEnv>();
  app.use("/api/*", cors({ origin: "*", allowHeaders: ["Authorization", "Content-Type", "X-Studio-Token", "Range"], exposeHeaders: ["Content-Range", "Content-Length", "Retry-After"] }));
  app.route("/api", healthRoutes);
  app.all("/api/*", () => {
    throw notFound("no such endpoint");
  });
  app.notFound(async (c) => {
    if (c.env.ASSETS) return c.env.ASSETS.fetch(c.req.raw);
    return c.json({ error: "not found" }, 404);
  });
  app.onError(handleError);
  return app;
}
