// One structured log line per API request: a request id (also sent back as X-Request-Id so a caller can quote it),
// the method, the route *pattern* (`/api/projects/:slug/files/*`, never the path: slugs and file names are the
// user's), the status, the duration and how the caller authenticated. No token, no cookie, no user id.
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "./context.ts";
import { logEvent } from "./log.ts";

/** Cloudflare's ray id when there is one (it ties the line to Cloudflare's own logs), else a fresh id. */
function requestIdOf(headers: Headers): string {
  const ray = headers.get("cf-ray");
  return ray && /^[0-9a-f]{16}(-[A-Z]{3})?$/i.test(ray) ? ray : crypto.randomUUID();
}

export const logRequest: MiddlewareHandler<AppEnv> = async function logRequest(c, next) {
  const started = Date.now();
  const requestId = requestIdOf(c.req.raw.headers);
  c.set("requestId", requestId);
  try {
    await next();
  } finally {
    // An error answered by onError has already set c.res by now.
    c.res.headers.set("X-Request-Id", requestId);
    const status = c.res.status;
    logEvent(status >= 500 ? "error" : "info", "request", {
      requestId,
      method: c.req.method,
      route: routePath(c),
      status,
      durationMs: Date.now() - started,
      caller: c.get("credential") ?? "anonymous",
    });
  }
};
