// One structured log line per API request: a request id (also sent back as X-Request-Id so a caller can quote it),
// the method, the route *pattern* (`/api/projects/:slug/files/*`, never the path: slugs and file names are the
// user's), the status, the duration and how the caller authenticated, and where its D1 calls were served
// (worker/db/served-by.ts: `d1Calls`, `servedByPrimary`, `servedByRegion`; an operator sees there that the reads
// of the board's routes reach replicas). No token, no cookie, no user id.
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "./context.ts";
import { envWith } from "../config/config-of.ts";
import { ServedByCounter } from "../db/served-by.ts";
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
  // The request's own D1 calls counted where they were served (what the bindings made from it later, the credential
  // gate's, go through this one). Work left to waitUntil after the answer is not counted.
  const served = new ServedByCounter();
  c.env = envWith(c.env, { DB: served.over(c.env.DB) });
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
      d1Calls: served.counts.calls,
      servedByPrimary: served.counts.primary,
      servedByRegion: served.counts.regions,
    });
  }
};
