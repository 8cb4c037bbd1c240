// Dashboard sessions: a random cookie value; the database keeps only its hash.
import { setPrivateCookie } from "../http/cookies.ts";
import { eq, and, gt } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import type { Db } from "../db/client.ts";
import { sessions, users } from "../db/schema/identity.ts";
import type { User } from "../http/context.ts";
import { randomSecret, sha256Hex } from "./tokens.ts";

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

export async function sessionUser(db: Db, cookieValue: string): Promise<User | null> {
  const row = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, await sha256Hex(cookieValue)), gt(sessions.expiresAt, Date.now())))
    .get();
  return row?.user ?? null;
}

export async function endSession(c: Context, db: Db): Promise<void> {
  const value = getCookie(c, SESSION_COOKIE);
  if (value) await db.delete(sessions).where(eq(sessions.idHash, await sha256Hex(value)));
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
}
