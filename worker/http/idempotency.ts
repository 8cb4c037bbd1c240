// Idempotency-Key on the POSTs that create (project, render, batch, idea, comment: the routes whose declaration says
// `idempotent`, worker/http/route.ts), as Stripe does it: the first answer
// (status and body) is kept for 24 hours and replayed to the same caller sending the same key, so an agent retrying
// after a dropped connection never creates twice. The same key with another request (method, path or body) is a
// 422; a retry racing the first request is a 409 until that one has answered. 5xx, 401, 403 and 429 answers are not
// kept (the retry runs again). The key row is claimed with an insert before the route runs, so two racing requests cannot both
// create: the primary key (caller, key) decides.
import { and, eq, lt } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { sha256Hex } from "../auth/tokens.ts";
import { openDb, type Db } from "../db/client.ts";
import { idempotencyKeys } from "../db/schema/idempotency.ts";
import type { AppEnv } from "./context.ts";
import { ApiError, badRequest } from "./errors.ts";
import { readBoundedBytes, type BodyLimit } from "./read-body.ts";
import { bodyLimitOf, declarationOf } from "./route.ts";
import { logEvent } from "./log.ts";

export const IDEMPOTENCY_TTL_HOURS = 24;
const TTL_MS = IDEMPOTENCY_TTL_HOURS * 3_600_000;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
/**
 * A first request still unanswered after this long died with its isolate (creates answer in well under a second;
 * a waiting render is bounded by its wall-clock limit and a repeated render POST returns the running render), so
 * its key starts over instead of answering "in progress" for a day.
 */
const IN_FLIGHT_MS = 15 * 60_000;

/** The caller a key belongs to: a bot is itself (not its owner), so two bots of one person keep their keys apart. */
function callerOf(c: Context<AppEnv>): string | null {
  const bot = c.get("bot");
  if (bot && c.get("credential") === "bot") return `bot:${bot.id}`;
  const user = c.get("user");
  return user ? `user:${user.id}` : null;
}

type Stored = typeof idempotencyKeys.$inferSelect;

/** The live record of (caller, key), or null; an expired one is deleted so the key starts over. */
async function liveRecord(db: Db, caller: string, key: string, now: number): Promise<Stored | null> {
  const where = and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.key, key));
  const row = await db.select().from(idempotencyKeys).where(where).get();
  if (!row) return null;
  const abandoned = row.status === null && row.createdAt < now - IN_FLIGHT_MS;
  if (row.createdAt > now - TTL_MS && !abandoned) return row;
  await db.delete(idempotencyKeys).where(and(where, eq(idempotencyKeys.createdAt, row.createdAt)));
  return null;
}

function answerFrom(row: Stored, fingerprint: string): Response {
  if (row.fingerprint !== fingerprint) {
    throw new ApiError(422, "this Idempotency-Key was used with a different request; use a new key for a new request", {}, {}, "idempotency_key_reused");
  }
  if (row.status === null) {
    throw new ApiError(409, "a request with this Idempotency-Key is still being answered; retry in a moment", {}, { "Retry-After": "1" }, "idempotency_in_progress");
  }
  return new Response(row.body, {
    status: row.status,
    headers: { "Content-Type": row.contentType ?? "application/json", "Idempotent-Replayed": "true" },
  });
}

/** Not kept: server errors, and refusals a retry may outgrow (credentials, caps, rate limits). */
const isKept = (status: number) => status < 500 && status !== 401 && status !== 403 && status !== 429;

/**
 * Registered once in app.ts ahead of every route: the route this request reaches says, in its declaration, whether
 * it takes an Idempotency-Key, and with which body limit its body is read (the one used here to read ahead).
 */
export const idempotentRoutes: MiddlewareHandler<AppEnv> = async function idempotentRoutes(c, next) {
  if (c.req.header("Idempotency-Key") === undefined) return next();
  const declared = matchedRoutes(c)
    .map((r) => declarationOf(r.handler))
    .find((route) => route !== undefined);
  if (!declared?.doc.idempotent) return next();
  return keepAnswer(c, next, bodyLimitOf(declared));
};

/** The first answer to (caller, key) kept and replayed, reading ahead with the route's own body limit (and its own 413). */
async function keepAnswer(c: Context<AppEnv>, next: () => Promise<void>, limit: BodyLimit): Promise<Response | void> {
  const key = c.req.header("Idempotency-Key");
  if (key === undefined) return next();
  if (!KEY_PATTERN.test(key)) {
    throw badRequest("invalid Idempotency-Key: 1 to 255 printable ASCII characters", "invalid_idempotency_key");
  }
  const caller = callerOf(c);
  if (!caller) return next(); // the route answers 401; nothing to remember

  // The body is read here to fingerprint it, then handed on unchanged. It is bounded by the route's own limit: a
  // 1 MiB JSON route is never buffered up to the upload limit, and an oversized body gets the route's 413.
  const body = await readBoundedBytes(c.req.raw, limit.bytes(c.env), limit.hint);
  c.req.raw = new Request(c.req.raw, { body: body.byteLength ? body : null });
  const url = new URL(c.req.url);
  const fingerprint = await sha256Hex(`${c.req.method} ${url.pathname}${url.search}\n${await sha256Hex(new TextDecoder().decode(body))}`);

  const db = openDb(c.env.DB);
  const now = Date.now();
  const existing = await liveRecord(db, caller, key, now);
  if (existing) return answerFrom(existing, fingerprint);
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ caller, key, fingerprint, status: null, body: null, contentType: null, createdAt: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length === 0) {
    const winner = await liveRecord(db, caller, key, now);
    if (winner) return answerFrom(winner, fingerprint);
  }

  const where = and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.key, key));
  try {
    await next();
  } catch (err) {
    await db.delete(idempotencyKeys).where(where);
    throw err;
  }
  // A thrown ApiError has become c.res by now (hono's onError runs inside compose), so a decided 4xx (400, 404,
  // 409, 413, ...) is kept like a success. Answers that depend on the moment rather than the request are not.
  if (!isKept(c.res.status)) {
    await db.delete(idempotencyKeys).where(where);
    return;
  }
  const text = await c.res.clone().text();
  try {
    await db
      .update(idempotencyKeys)
      .set({ status: c.res.status, body: text, contentType: c.res.headers.get("Content-Type") })
      .where(where);
  } catch (err) {
    // The work is done: the caller gets its answer even if it cannot be kept (a retry then runs again).
    logEvent("error", "idempotency.store_failed", { error: err });
    // Left behind, the claim counts as abandoned after IN_FLIGHT_MS; a retry before then is told it is in progress.
    await db.delete(idempotencyKeys).where(where).catch((error: unknown) => logEvent("error", "idempotency.release_failed", { error, left: "until abandoned" }));
  }
  // Expired records of everyone go as new ones come; the index on created_at keeps this cheap.
  c.executionCtx.waitUntil(db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, now - TTL_MS)).then(() => undefined));
}
