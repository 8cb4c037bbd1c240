// The MCP tools call the Worker's own REST app in-process, with the caller's credential, so a tool answers exactly
// what the REST route answers: the same validation, messages, codes, limits and ownership checks. Nothing here
// reimplements a route; it only shapes requests and reads answers. A tool names one resource, and the request it
// sends must reach that resource and no other: tools validate their arguments first (core/paths/identifiers.ts),
// and every request is checked here again before it is sent (requestUrl), so a value that slipped past a tool's
// schema still cannot climb to another route ("files/../../../me" parsed into "/api/me").
import type { ExecutionContext, Hono } from "hono";
import { percentLayers } from "../../core/paths/percent-layers.ts";
import type { AppEnv } from "../http/context.ts";
import type { Env } from "../env.ts";
import { traversalProblem } from "../http/dot-segments.ts";
import { errorBody } from "../http/errors.ts";
import { apiOrigin } from "../http/origins.ts";
import { parseJson } from "../../core/parse-text.ts";

/** A REST answer that was not 2xx, carried to the tool as an MCP tool error with the same body. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.error === "string" ? body.error : `HTTP ${status}`);
  }
}

export interface RestCall {
  method?: string;
  /** The path under the API origin, built with apiPath, e.g. `/api/projects/demo/files/index.html`; no query. */
  path: string;
  /** Query parameters, encoded here (undefined ones are left out). */
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON value (sent as application/json) or raw bytes/text (sent as-is). */
  json?: unknown;
  raw?: BodyInit;
  signal?: AbortSignal;
}

export interface RestClient {
  /** The API origin, for the absolute links tools answer with. */
  readonly origin: string;
  /** The raw Response (2xx only; any other status throws RestError). */
  fetch(call: RestCall): Promise<Response>;
  /** The parsed JSON of a 2xx answer. */
  json<T = unknown>(call: RestCall): Promise<T>;
}

/**
 * The caller's credential on each request: an Authorization header value (a personal token or bot key), or, for an
 * OAuth grant, a function that attaches the grant to the Request object itself (worker/oauth/oauth-caller.ts).
 */
export type RestCredential = string | ((request: Request) => void);

export function restClient(api: Hono<AppEnv>, env: Env, ctx: ExecutionContext, credential: RestCredential): RestClient {
  const origin = apiOrigin(env);
  async function send(call: RestCall): Promise<Response> {
    const headers = new Headers(typeof credential === "string" ? { Authorization: credential } : {});
    let body: BodyInit | undefined;
    if (call.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(call.json);
    } else if (call.raw !== undefined) {
      body = call.raw;
    }
    const req = new Request(requestUrl(origin, call), { method: call.method ?? "GET", headers, body, signal: call.signal });
    if (typeof credential === "function") credential(req);
    const res = await api.fetch(req, env, ctx);
    if (res.ok) return res;
    const text = await res.text();
    // An error body that is not JSON (a platform's page) still becomes the error's message.
    const json = parseJson(text);
    const value = json.ok ? json.value : null;
    const parsed = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { error: text || `HTTP ${res.status}` };
    throw new RestError(res.status, parsed);
  }
  return {
    origin,
    fetch: send,
    async json<T>(call: RestCall): Promise<T> {
      return (await (await send(call)).json()) as T;
    },
  };
}

/** `segments` joined as a URL path, each segment percent-encoded (a file path keeps its slashes). */
export function apiPath(...segments: string[]): string {
  return segments.map((s) => s.split("/").map(encodeURIComponent).join("/")).join("/");
}

/** Longest path a tool sends: the route, a slug and a 512-character file path with every character encoded. */
const MAX_PATH_CHARS = 8192;

/**
 * What apiPath makes: "/" then segments of encodeURIComponent's output (unreserved characters and %XX escapes), no
 * empty segment but a last one (a trailing "/" names a directory). No "?", "#", backslash, space or raw Unicode.
 */
const ENCODED_PATH = /^(?:\/(?:[A-Za-z0-9\-_.!~*'()]|%[0-9A-Fa-f]{2})+)+\/?$/;

/** Why this path would not name exactly itself once sent, or null. */
function pathProblem(path: string): string | null {
  if (path.length > MAX_PATH_CHARS) return `path is longer than ${MAX_PATH_CHARS} characters`;
  if (!ENCODED_PATH.test(path)) return "path is not a percent-encoded path of non-empty segments";
  // Dot segments and backslashes at any layer of encoding: the URL parser or a router would resolve them.
  const traversal = traversalProblem(path);
  if (traversal) return traversal;
  // An encoded slash a router decodes would split one segment into two.
  if (path.split("/").some((segment) => (percentLayers(segment)[1] ?? "").includes("/"))) return "path may not contain encoded slashes";
  return null;
}

/**
 * The URL a call is sent to, refused (a 400 tool error; nothing is sent) unless its pathname is exactly the path the
 * tool built: nothing resolved, re-encoded or moved into the query or fragment, on the API origin. The query is
 * encoded here from values, so no value can end the path or start a fragment.
 */
export function requestUrl(origin: string, call: RestCall): URL {
  const problem = pathProblem(call.path);
  const url = problem ? null : new URL(origin + call.path);
  if (problem || !url || url.origin !== origin || url.pathname !== call.path) {
    throw new RestError(400, errorBody(`invalid path: refused to send ${call.method ?? "GET"} ${call.path.slice(0, 200)}: ${problem ?? "the URL parser changed it"}`, "bad_request"));
  }
  for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.append(name, String(value));
  return url;
}
