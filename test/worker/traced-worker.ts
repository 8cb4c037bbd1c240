// The Worker called directly with the bench's traced D1 binding (bench/d1-trace/trace-d1.ts), so a test counts the
// sequential round trips to D1's primary a request made, and the caller cache one request warms is the one the
// next request uses. The Durable Objects' D1 calls on the request's path count too (bench/d1-trace/rooms.ts).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import { traceRooms, untracedBinding } from "../../bench/d1-trace/rooms.ts";
import { D1Trace } from "../../bench/d1-trace/trace-d1.ts";
import type { Env } from "../../worker/env.ts";
import worker from "../../worker/index.ts";
import { BASE } from "./helpers.ts";

export interface Sent {
  res: Response;
  /** Sequential round trips to D1's primary this request made. */
  trips: number;
  /** What each round trip sent (trace-d1.ts), shown when a count is off. */
  log: string[];
}

/**
 * One request to the Worker with a traced D1 binding (its Durable Objects' too); the answer read in full. `trips`
 * are the ones the answer waited for (work left to waitUntil runs after it and is not counted). `distance` models D1's copies as far away
 * (ms): with none, every call ends at once, so a call made while another is still under way in the real world
 * counts as a trip of its own.
 */
export async function send(path: string, init: RequestInit = {}, distance = { primaryMs: 0, replicaMs: 0 }): Promise<Sent & { body: string }> {
  // As over HTTP: a body comes with its length (a constructed Request has no Content-Length header of its own).
  if (typeof init.body === "string") init = { ...init, headers: { ...(init.headers as Record<string, string>), "Content-Length": String(new TextEncoder().encode(init.body).length) } };
  const trace = new D1Trace(untracedBinding(env.DB), distance);
  const ctx = createExecutionContext();
  const untrace = traceRooms(trace, env.DB);
  let sent: Sent & { body: string };
  try {
    const res = await worker.fetch!(new Request(`${BASE}${path}`, init) as Request<unknown, IncomingRequestCfProperties>, { ...(env as unknown as Env), DB: trace.db }, ctx);
    const body = await res.text();
    sent = { res, body, trips: trace.counts.primaryWaves, log: [...trace.log] };
  } finally {
    untrace();
  }
  await waitOnExecutionContext(ctx);
  return sent;
}

export const bearer = (token: string, headers: Record<string, string> = {}) => ({ ...headers, Authorization: `Bearer ${token}` });
export const jsonBody = (value: unknown) => ({ "Content-Type": "application/json", body: JSON.stringify(value) });

export async function signIn(name: string) {
  const { res, body } = await send("/auth/dev/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
  expect(res.status).toBe(200);
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  const session = JSON.parse(body) as { token: string; user: { id: string } };
  return { token: session.token, cookie, userId: session.user.id };
}

export async function createProject(token: string, name: string): Promise<string> {
  const { "Content-Type": type, body } = jsonBody({ name });
  const made = await send("/api/projects", { method: "POST", headers: bearer(token, { "Content-Type": type }), body });
  expect(made.res.status).toBe(201);
  return (JSON.parse(made.body) as { slug: string }).slug;
}
