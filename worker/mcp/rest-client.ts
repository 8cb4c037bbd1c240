// The MCP tools call the Worker's own REST app in-process, with the caller's credential, so a tool answers exactly
// what the REST route answers: the same validation, messages, codes, limits and ownership checks. Nothing here
// reimplements a route; it only shapes requests and reads answers.
import type { ExecutionContext, Hono } from "hono";
import type { AppEnv } from "../http/context.ts";
import type { Env } from "../env.ts";
import { apiOrigin } from "../http/origins.ts";

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
  /** Path and query under the API origin, e.g. `/api/projects/demo/files/index.html`. */
  path: string;
  /** A JSON value (sent as application/json) or raw bytes/text (sent as-is). */
  json?: unknown;
  raw?: BodyInit;
  signal?: AbortSignal;
}

export interface RestClient {
  /** The raw Response (2xx only; any other status throws RestError). */
  fetch(call: RestCall): Promise<Response>;
  /** The parsed JSON of a 2xx answer. */
  json<T = unknown>(call: RestCall): Promise<T>;
}

export function restClient(api: Hono<AppEnv>, env: Env, ctx: ExecutionContext, authorization: string): RestClient {
  const origin = apiOrigin(env);
  async function send(call: RestCall): Promise<Response> {
    const headers = new Headers({ Authorization: authorization });
    let body: BodyInit | undefined;
    if (call.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(call.json);
    } else if (call.raw !== undefined) {
      body = call.raw;
    }
    const req = new Request(origin + call.path, { method: call.method ?? "GET", headers, body, signal: call.signal });
    const res = await api.fetch(req, env, ctx);
    if (res.ok) return res;
    const text = await res.text();
    let parsed: Record<string, unknown>;
    try {
      const value = JSON.parse(text) as unknown;
      parsed = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { error: text };
    } catch {
      parsed = { error: text || `HTTP ${res.status}` };
    }
    throw new RestError(res.status, parsed);
  }
  return {
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
