// How a bad configuration surfaces: every request answers 500 `{ error: "server misconfigured: <setting>:
// <problem>", code: "misconfigured" }` (GET /api/health too, with `ok: false`, the problems one by one and the build,
// so a deploy check sees it at once), and each one writes a `misconfigured` log line naming the problems. Nothing
// else runs: no route may work from a half-read configuration.
import type { Env } from "../env.ts";
import { errorBody } from "../http/errors.ts";
import { logEvent } from "../http/log.ts";
import { VERSION } from "./health-routes.ts";
import type { ConfigError } from "../config/parse-config.ts";

/** The 500 every request gets while the configuration is bad. */
export function misconfiguredResponse(request: Request, env: Env, error: ConfigError): Response {
  const url = new URL(request.url);
  logEvent("error", "misconfigured", { method: request.method, path: url.pathname, problems: error.problems });
  const message = `server misconfigured: ${error.message}`;
  const meta = env.CF_VERSION_METADATA;
  const body =
    url.pathname === "/api/health"
      ? errorBody(message, "misconfigured", {
          ok: false,
          problems: error.problems,
          version: VERSION,
          build: meta ? { id: meta.id, tag: meta.tag || null, uploadedAt: meta.timestamp || null } : null,
        })
      : errorBody(message, "misconfigured");
  return Response.json(body, { status: 500, headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });
}

/** The scheduled handler's answer to a bad configuration: the log line, and no work. */
export function logMisconfigured(event: string, error: ConfigError): void {
  logEvent("error", "misconfigured", { during: event, problems: error.problems });
}
