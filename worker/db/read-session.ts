// D1 sessions for the routes whose reads may be slightly stale (the idea board, stats, research): their reads may
// be served by a read replica near the Worker instead of the primary, and a client still reads its own writes.
// Every answer of those routes carries the session's latest bookmark in X-D1-Bookmark; a client that sends it back
// is served from a copy at least as new as that bookmark (D1's Sessions API), so it sees its own writes. Without
// one, a read starts unconstrained (any copy). Writes start at the primary, so the checks they make before writing
// (does the idea exist, has this person voted) read the newest data; the bookmark they answer covers the write.
import { drizzle } from "drizzle-orm/d1";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context.ts";
import { schema, type Db } from "./client.ts";
import { writesThrough } from "./write-batch.ts";

export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** D1's bookmarks are dash-separated hex fields ("00000085-0000024c-00004c6d-8e61..."); anything else is ignored. */
const BOOKMARK = /^[0-9a-f]{1,64}(?:-[0-9a-f]{1,64}){1,7}$/i;
const MAX_BOOKMARK_LENGTH = 128;

/** The session a request opened, so its routes share one and the answer carries its bookmark. */
const opened = new WeakMap<Request, D1DatabaseSession>();

/** The bookmark the client sent back, or null when none was sent or it is malformed (then it is ignored). */
export function sentBookmark(c: Context<AppEnv>): string | null {
  const value = c.req.header(BOOKMARK_HEADER)?.trim();
  if (!value || value.length > MAX_BOOKMARK_LENGTH || !BOOKMARK.test(value)) return null;
  return value;
}

/** The request's session, opened at `start` unless one is already open (one session per request). */
function sessionFor(c: Context<AppEnv>, start: string): D1DatabaseSession {
  const existing = opened.get(c.req.raw);
  if (existing) return existing;
  const session = c.env.DB.withSession(start);
  opened.set(c.req.raw, session);
  return session;
}

/** A session for reads: from the client's bookmark when it sent one, else from any copy (a nearby replica). */
export function readSession(c: Context<AppEnv>): D1DatabaseSession {
  return sessionFor(c, sentBookmark(c) ?? "first-unconstrained");
}

/** A session for a write: its first query goes to the primary, so what it checks before writing is current. */
export function writeSession(c: Context<AppEnv>): D1DatabaseSession {
  return sessionFor(c, "first-primary");
}

/** Drizzle over a session. Its D1 driver calls only prepare and batch, which a session has as the database does. */
function sessionDb(session: D1DatabaseSession): Db {
  return drizzle(session as unknown as D1Database, { schema });
}

/** Drizzle over the request's read session. */
export function readDb(c: Context<AppEnv>): Db {
  return sessionDb(readSession(c));
}

/** Drizzle over the request's write session, its batches sent as ones that write (write-batch.ts). */
export function writeDb(c: Context<AppEnv>): Db {
  return sessionDb(writesThrough(writeSession(c)));
}

/**
 * Answers the bookmark of the request's session (errors included), or the client's own when the route made no query,
 * so a client that keeps the last bookmark it got never loses it.
 */
export const answerBookmark: MiddlewareHandler<AppEnv> = async function answerBookmark(c, next) {
  await next();
  const bookmark = opened.get(c.req.raw)?.getBookmark() ?? sentBookmark(c);
  if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
};
