// Dashboard sessions: a random cookie value; the database keeps only its hash. `sessionCookie` is the one reader of
// the cookie, and it applies the cross-site rule itself, so no handler can use the cookie without it.
import { setPrivateCookie } from "../http/cookies.ts";
import { eq, and, gt, sql } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import type { Db } from "../db/client.ts";
import { sessions, users } from "../db/schema/identity.ts";
import type { AppEnv, User } from "../http/context.ts";
import { refuseCrossSiteCookieUse } from "../http/csrf.ts";
import { randomSecret, sha256Hex } from "./tokens.ts";
import { endStreamsOf, projectSlugsOf } from "./end-streams.ts";

export const SESSION_COOKIE = "studio_session";
const SESSION_DAYS = 30;

export async function startSession(c: Context, db: Db, userId: string): Promise<void> {
  const id = randomSecret();
  const now = Date.now();
  await db.insert(sessions).values({
    idHash: await sha256Hex(id),
    userId,
    createdAt: now,
    expiresAt: now + SESSION_DAYS * 86_400_000,
  });
  setPrivateCookie(c, SESSION_COOKIE, id, { path: "/", maxAgeSeconds: SESSION_DAYS * 86_400 });
}

/**
 * The session cookie this request carries, handed out only once the cross-site rule (worker/http/csrf-rule.ts)
 * has let the request use it (403 otherwise), whatever else it carries: a browser sends the cookie on its own,
 * also along with a ?token= or an Authorization header another site chose, so the rule cannot depend on how
 * `identify` went. Null when there is no cookie.
 */
export function sessionCookie(c: Context<AppEnv>): string | null {
  const value = getCookie(c, SESSION_COOKIE);
  if (!value) return null;
  refuseCrossSiteCookieUse(c);
  return value;
}

export async function sessionUser(db: Db, cookieValue: string): Promise<User | null> {
  const row = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, await sha256Hex(cookieValue)), gt(sessions.expiresAt, Date.now())))
    .get();
  return row?.user ?? null;
}

/**
 * Signs the session out: its row is deleted, in the same batch as the read of its user's projects, and before the
 * answer every room of those projects ends the streams this session opened (end-streams.ts).
 */
export async function endSession(c: Context<AppEnv>, db: Db): Promise<void> {
  const value = sessionCookie(c);
  if (value) {
    const hash = await sha256Hex(value);
    const [owned, deleted] = await db.batch([
      projectSlugsOf(db, sql`(SELECT user_id FROM sessions WHERE id_hash = ${hash})`),
      db.delete(sessions).where(eq(sessions.idHash, hash)).returning({ userId: sessions.userId }),
    ]);
    const userId = deleted[0]?.userId;
    if (userId) await endStreamsOf(c.env, userId, owned.map((row) => row.slug), [{ kind: "session", id: hash }]);
  }
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
}
