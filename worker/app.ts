// Assembles the Hono app: CORS, caller identification, errors, every resource's routes, and the dashboard pages.
import { Hono } from "hono";
import { cors } from "hono/cors";
import { identify } from "./auth/middleware.ts";
import type { AppEnv } from "./http/context.ts";
import { downloadCors } from "./http/download-cors.ts";
import { handleError, notFound } from "./http/errors.ts";
import { authRoutes } from "./routes/auth.ts";
import { botRoutes } from "./routes/bots.ts";
import { groupRoutes } from "./routes/groups.ts";
import { enrichmentRoutes, ideaRoutes } from "./routes/ideas.ts";
import { metricsRoutes } from "./routes/metrics.ts";
import { researchRoutes } from "./routes/research.ts";
import { docsRoutes } from "./routes/docs.ts";
import { fileRoutes } from "./routes/files.ts";
import { healthRoutes } from "./routes/health.ts";
import { checkRoutes } from "./routes/check.ts";
import { lintRoutes } from "./routes/lint.ts";
import { playRoutes } from "./routes/play.ts";
import { previewRoutes } from "./routes/preview.ts";
import { snapshotRoutes } from "./routes/snapshot.ts";
import { meRoutes } from "./routes/me.ts";
import { nodeRoutes } from "./routes/node.ts";
import { renderRoutes } from "./routes/render.ts";
import { renderFileRoutes, renderListRoutes } from "./routes/renders.ts";
import { projectRoutes } from "./routes/projects.ts";
import { statsRoutes } from "./routes/stats.ts";
import { recordPageView } from "./stats/visits.ts";
import "./nodes/resolve-node.ts";

export function createApp() {
  const app = new Hono<AppEnv>();
  app.use(
    "/api/*",
    cors({
      origin: "*",
      allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      allowHeaders: ["Authorization", "Content-Type", "X-Studio-Token", "Range", "If-Range"],
      exposeHeaders: ["Content-Range", "Content-Length", "Content-Disposition", "Retry-After", "ETag"],
    }),
  );
  app.use("/renders/*", downloadCors);
  app.use("*", identify);
  app.route("/api", healthRoutes);
  app.route("/api", docsRoutes);
  app.route("/api/me", meRoutes);
  app.route("/api/stats", statsRoutes);
  app.route("/api/projects", fileRoutes);
  app.route("/api/projects", renderRoutes);
  app.route("/api/projects", lintRoutes);
  app.route("/api/projects", checkRoutes);
  app.route("/api/projects", snapshotRoutes);
  app.route("/api/projects", previewRoutes);
  app.route("/api/projects", projectRoutes);
  app.route("/api/renders", renderListRoutes);
  app.route("/api/node", nodeRoutes);
  app.route("/renders", renderFileRoutes);
  app.route("/auth", authRoutes);
  app.route("/play", playRoutes);
  app.route("/api/ideas", ideaRoutes);
  app.route("/api/enrichments", enrichmentRoutes);
  app.route("/api/bots", botRoutes);
  app.route("/api/groups", groupRoutes);
  app.route("/api/research", researchRoutes);
  app.route("/api/metrics", metricsRoutes);
  app.all("/api/*", () => {
    throw notFound("no such endpoint");
  });
  // Everything else is the dashboard. A page navigation counts as a page view.
  app.notFound(async (c) => {
    if (!c.env.ASSETS) return c.json({ error: "not found" }, 404);
    const res = await c.env.ASSETS.fetch(c.req.raw);
    const isPage = c.req.method === "GET" && (res.headers.get("Content-Type") ?? "").startsWith("text/html");
    if (isPage && res.ok) {
      await recordPageView(c);
      const out = new Response(res.body, res);
      for (const cookie of c.res.headers.getSetCookie()) out.headers.append("Set-Cookie", cookie);
      return out;
    }
    return res;
  });
  app.onError(handleError);
  return app;
}
