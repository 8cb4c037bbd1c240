// Assembles the Worker's app. Routing is by host first: the content origin (CONTENT_URL) gets the content app and
// nothing else; the API origin (BASE_URL, and any other host) gets security headers, CORS, path checks, caller
// identification, the cross-site rule, errors, every resource's routes and the dashboard pages. The two apps share
// no middleware, so headers added to one can never loosen or clobber the other's.
import { DOC_TEXTS_PATH } from "../core/docs/doc-text-files.ts";
import { usageRoutes } from "./budgets/usage-routes.ts";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { identifyCaller } from "./auth/authenticate.ts";
import type { AppEnv } from "./http/context.ts";
import { refuseCrossSiteWrites } from "./http/csrf.ts";
import { refuseDotSegments } from "./http/dot-segments.ts";
import { idempotentRoutes } from "./http/idempotency.ts";
import { apiSecureHeaders, dashboardCsp } from "./http/secure-headers.ts";
import { downloadCors } from "./http/download-cors.ts";
import { logRequest } from "./http/request-log.ts";
import { methodsOf, wrongMethod } from "./http/method-not-allowed.ts";
import { errorBody, handleError, notFound } from "./http/errors.ts";
import { authRoutes } from "./auth/sign-in-routes.ts";
import { botRoutes } from "./ideas/bot-routes.ts";
import { groupRoutes } from "./ideas/group-routes.ts";
import { commentRoutes, enrichmentRoutes, ideaRoutes } from "./ideas/idea-routes.ts";
import { metricsRoutes } from "./ideas/metrics-routes.ts";
import { researchRoutes } from "./research/research-routes.ts";
import { docsRoutes } from "./docs/docs-routes.ts";
import { fileRoutes } from "./projects/files/file-routes.ts";
import { healthRoutes } from "./ops/health-routes.ts";
import { checkRoutes } from "./checks/check-routes.ts";
import { lintRoutes } from "./checks/lint-routes.ts";
import { contentLinkRedirect, playRoutes, studioScriptRedirect } from "./content/play-routes.ts";
import { previewRoutes } from "./checks/preview-routes.ts";
import { snapshotRoutes } from "./checks/snapshot-routes.ts";
import { snapshotJobRoutes } from "./checks/snapshot-job-routes.ts";
import { meRoutes } from "./auth/me-routes.ts";
import { nodeRoutes } from "./renders/farm/node-routes.ts";
import { nodeKeyRoutes } from "./renders/farm/node-key-routes.ts";
import { renderRoutes } from "./renders/render-routes.ts";
import { batchRoutes } from "./renders/batch-routes.ts";
import { renderFileRoutes, renderListRoutes } from "./renders/renders-routes.ts";
import { liveRoutes } from "./renders/live/live-routes.ts";
import { projectRoutes } from "./projects/project-routes.ts";
import { projectEventRoutes } from "./projects/project-events-routes.ts";
import { statsRoutes } from "./stats/stats-routes.ts";
import { recordPageView } from "./stats/visits.ts";
import { createContentApp } from "./content/content-app.ts";
import { isContentHost } from "./http/origins.ts";
import { shareRoutes } from "./capabilities/share-routes.ts";
import { mcpRoutes } from "./mcp/mcp-route.ts";
import { refuseForeignMcpOrigins } from "./mcp/mcp-origin.ts";
import { enforceGrantScopes } from "./oauth/oauth-caller.ts";
import { grantRoutes } from "./oauth/grant-routes.ts";
import { oauthRoutes } from "./oauth/oauth-routes.ts";
import { agentDocsRoutes } from "./docs/agent-docs-routes.ts";
import { projectWebhookRoutes, renderDeliveryRoutes, webhookSecretRoutes } from "./webhooks/webhook-routes.ts";
import "./renders/farm/resolve-node.ts";

export function createApp() {
  const content = createContentApp();
  const api = createApiApp();
  return new Hono<AppEnv>().all("*", (c) => (isContentHost(c.env, c.req.url) ? content : api).fetch(c.req.raw, c.env, c.executionCtx));
}

/** The first segment of a path ("api" for /api/me, "" for /). */
const firstSegment = (path: string) => path.split("/")[1] ?? "";

/**
 * Whether no route of the app starts with this path's first segment, so the dashboard's assets answer it (the
 * not-found handler): then no caller is looked up, and a page or script costs no D1 round trip for it. Worked out
 * from the app's own routes on first use, so a new route is never mistaken for the dashboard.
 */
function dashboardPaths(app: Hono<AppEnv>): (path: string) => boolean {
  let routed: Set<string> | null = null;
  return (path) => {
    routed ??= new Set(app.routes.filter((r) => r.path !== "*" && r.path !== "/*").map((r) => firstSegment(r.path)));
    return !routed.has(firstSegment(path));
  };
}

export function createApiApp() {
  const app = new Hono<AppEnv>();
  app.use("*", logRequest);
  app.use("*", apiSecureHeaders);
  app.use(
    "/api/*",
    cors({
      origin: "*",
      allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      allowHeaders: ["Authorization", "Content-Type", "X-Studio-Token", "Range", "If-Range", "Idempotency-Key", "X-D1-Bookmark"],
      exposeHeaders: ["Content-Range", "Content-Length", "Content-Disposition", "Retry-After", "ETag", "Allow", "Idempotent-Replayed", "X-Request-Id", "X-D1-Bookmark"],
    }),
  );
  // /mcp answers no page of another origin (mcp/mcp-origin.ts: the transport's DNS-rebinding rule), preflights
  // included, before anyone is identified; so it has no CORS to offer either.
  app.use("/mcp/*", refuseForeignMcpOrigins);
  // OAuth discovery, registration and token requests come from MCP clients in a browser too; no cookie is used.
  for (const path of ["/.well-known/*", "/oauth/token", "/oauth/register"]) {
    app.use(path, cors({ origin: "*", allowMethods: ["GET", "POST", "OPTIONS"], allowHeaders: ["Authorization", "Content-Type", "Mcp-Protocol-Version"] }));
  }
  app.use("*", refuseDotSegments);
  app.use("/renders/*", downloadCors);
  // Who is calling, and the answer held until a cached caller's credential is confirmed (auth/authenticate.ts).
  app.use("*", identifyCaller(dashboardPaths(app)));
  app.use("*", refuseCrossSiteWrites);
  app.use("*", enforceGrantScopes);
  // Before the routes: each route's declaration says whether it takes an Idempotency-Key (worker/http/route.ts).
  app.use("*", idempotentRoutes);
  app.route("/api", healthRoutes);
  app.route("/api", docsRoutes(app));
  app.route("/api/me/apps", grantRoutes);
  app.route("/api/me", meRoutes);
  app.route("/api/stats", statsRoutes);
  app.route("/api/projects", fileRoutes);
  app.route("/api/projects", renderRoutes);
  app.route("/api/projects", batchRoutes);
  app.route("/api/projects", lintRoutes);
  app.route("/api/projects", checkRoutes);
  app.route("/api/projects", snapshotRoutes);
  app.route("/api/projects", snapshotJobRoutes);
  app.route("/api/projects", previewRoutes);
  app.route("/api/projects", shareRoutes);
  app.route("/api/projects", projectWebhookRoutes);
  app.route("/api/projects", projectEventRoutes);
  app.route("/api/projects", projectRoutes);
  app.route("/api/renders", renderDeliveryRoutes);
  app.route("/api/renders", renderListRoutes);
  app.route("/api/renders", liveRoutes);
  app.route("/api", usageRoutes);
  app.route("/api/webhooks", webhookSecretRoutes);
  app.route("/api/node", nodeRoutes);
  app.route("/api/node-keys", nodeKeyRoutes);
  app.route("/renders", renderFileRoutes);
  app.route("/auth", authRoutes);
  app.route("/play", playRoutes);
  // Content links and the play page's scripts live on the content origin; a copy pasted onto this host follows.
  app.get("/c/*", contentLinkRedirect);
  app.get("/_studio/*", studioScriptRedirect);
  app.route("/api/ideas", ideaRoutes);
  app.route("/api/enrichments", enrichmentRoutes);
  app.route("/api/comments", commentRoutes);
  app.route("/api/bots", botRoutes);
  app.route("/api/groups", groupRoutes);
  app.route("/api/research", researchRoutes);
  app.route("/api/metrics", metricsRoutes);
  app.route("/mcp", mcpRoutes(app));
  app.route("/", oauthRoutes);
  app.route("/", agentDocsRoutes);
  const methods = methodsOf(app);
  app.all("/api/*", (c) => {
    throw wrongMethod(methods, c.req.method, c.req.path) ?? notFound("no such endpoint");
  });
  // Everything else is the dashboard. A page navigation counts as a page view.
  app.notFound(async (c) => {
    // A write to a path served only with other methods (DELETE /auth/dev/login, POST /renders/<file>) is a 405.
    const refused = c.req.method === "GET" || c.req.method === "HEAD" ? null : wrongMethod(methods, c.req.method, c.req.path);
    if (refused) return handleError(refused, c);
    // The docs' raw Markdown is in the assets for the Worker to fill (core/docs/doc-text-files.ts), not to serve.
    if (!c.env.ASSETS || c.req.path.startsWith(`${DOC_TEXTS_PATH}/`)) return c.json(errorBody("not found", "not_found"), 404);
    let res = await c.env.ASSETS.fetch(c.req.raw);
    // An address the dashboard does not have: its not-found page (the 404 shell), with a real 404 status.
    if (res.status === 404 && c.req.method === "GET" && (c.req.header("Accept") ?? "").includes("text/html")) {
      const page = await c.env.ASSETS.fetch(new Request(new URL("/404", c.req.url), { headers: c.req.raw.headers }));
      if (page.ok) res = new Response(page.body, { status: 404, headers: page.headers });
    }
    const out = new Response(res.body, res);
    out.headers.set("Content-Security-Policy", dashboardCsp(c.env));
    const isPage = c.req.method === "GET" && (res.headers.get("Content-Type") ?? "").startsWith("text/html");
    if (isPage && res.ok) {
      await recordPageView(c);
      for (const cookie of c.res.headers.getSetCookie()) out.headers.append("Set-Cookie", cookie);
    }
    return out;
  });
  app.onError(handleError);
  return app;
}
