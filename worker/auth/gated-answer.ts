// Answers one API request behind a credential gate (request-gate.ts): the app runs with the request's gated
// environment, and its response is held until the credential check has answered. A response made for a cached
// caller whose credential turned out invalid is thrown away unsent (its reads of that caller's data reach nobody,
// its effects never happened) and the request is answered again as if the credential had never been cached: the
// 401 naming the credential on routes that need a caller, the anonymous answer on those that do not.
import type { Hono } from "hono";
import type { Env } from "../env.ts";
import type { AppEnv } from "../http/context.ts";
import { gatedEnv } from "./gated-bindings.ts";
import { runGated } from "./gated-fetch.ts";
import { RequestGate } from "./request-gate.ts";

/** Bodies up to this size are kept (by a clone) so the request can be answered again; larger ones are not trusted to the cache. */
export const REPLAYABLE_BODY_BYTES = 64 * 1024;

type RequestContext = Parameters<Hono<AppEnv>["fetch"]>[2];

/** A copy of the request to answer it again with, or null when its body is too large or of unknown size. */
function replayCopy(request: Request): Request | null {
  if (request.body === null) return request;
  const length = Number(request.headers.get("Content-Length") ?? Number.NaN);
  return Number.isFinite(length) && length <= REPLAYABLE_BODY_BYTES ? (request.clone() as Request) : null;
}

/** The app's answer to `request`, released only for a caller whose credential the primary confirmed. */
export async function answerGated(app: Hono<AppEnv>, request: Request, env: Env, ctx: RequestContext): Promise<Response> {
  const replay = replayCopy(request);
  const gate = new RequestGate(env.DB, replay !== null);
  const res = await runGated(gate, () => app.fetch(request, gatedEnv(env, gate), ctx));
  if (await gate.passed()) return res;
  await res.body?.cancel();
  // The credential's cache entry is gone, so this second answer looks it up like a first visit would.
  const again = new RequestGate(env.DB, false);
  return runGated(again, () => app.fetch(replay!, gatedEnv(env, again), ctx));
}
