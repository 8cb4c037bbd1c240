// Who is writing to the idea board. Humans (session cookie or personal token) and bots (bot key) may write;
// render nodes may not. Every write passes `requireWriter`: credential, then the rate limit, which the route's
// write batch pays in the same round trip (board-batch.ts). A cookie write has already passed the app-wide
// cross-site rule, worker/http/csrf.ts.
// A bot acts for the person who issued its key: it writes under its own name, but votes, spends the rate limit and
// owns research records as that person, so holding many bot keys gives nobody extra votes or writes.
import type { Context, MiddlewareHandler } from "hono";
import { configOf } from "../config/config-of.ts";
import { writeDb } from "../db/read-session.ts";
import type { AppEnv } from "../http/context.ts";
import { forbidden, unauthorized } from "../http/errors.ts";
import { boardWrite, checkSpent, oweSpend, type BoardWrite } from "./board-batch.ts";
import { rateLimitOf } from "./rate-limit.ts";

export interface Writer {
  /** "user:<id>" or "bot:<id>": the author key. */
  key: string;
  /** "user:<id>" of the person behind the caller (a bot's owner): the voter and rate-limit key. */
  person: string;
  /** The person's user id. */
  personId: string;
  isBot: boolean;
  /** Display name used when the request gives none. */
  name: string;
  userId: string | null;
}

/** The caller as an idea-board actor, or null for anonymous readers and render nodes. */
export function actorOf(c: Context<AppEnv>): Writer | null {
  const bot = c.get("bot");
  if (bot && c.get("credential") === "bot") {
    return { key: `bot:${bot.id}`, person: `user:${bot.ownerId}`, personId: bot.ownerId, isBot: true, name: bot.name, userId: null };
  }
  const user = c.get("user");
  if (user) return { key: `user:${user.id}`, person: `user:${user.id}`, personId: user.id, isBot: false, name: user.name, userId: user.id };
  return null;
}

export const requireWriter: MiddlewareHandler<AppEnv> = async function requireWriter(c, next) {
  if (c.get("credential") === "node") throw forbidden("render node keys cannot write to the idea board");
  const writer = actorOf(c);
  if (!writer) throw unauthorized(c.get("authProblem"));
  // Owed until the route's first board batch pays it (board-batch.ts).
  oweSpend(c, writer.person, rateLimitOf(c.env));
  await next();
  checkSpent(c);
};

/** The board writes of a request behind requireWriter, in its write session (worker/db/read-session.ts). */
export function boardWriteOf(c: Context<AppEnv>): BoardWrite {
  return boardWrite(c, writeDb(c));
}

/** The writer, for handlers behind requireWriter. */
export function currentWriter(c: Context<AppEnv>): Writer {
  const writer = actorOf(c);
  if (!writer) throw unauthorized(c.get("authProblem"));
  return writer;
}

export function isAdmin(c: Context<AppEnv>): boolean {
  const user = c.get("user");
  return Boolean(user && c.get("credential") !== "bot" && configOf(c.env).ADMIN_USER_IDS.includes(user.id));
}

/** Behind requireWriter: only users listed in ADMIN_USER_IDS. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async function requireAdmin(c, next) {
  if (!isAdmin(c)) throw forbidden("only admins can do this", "admin_only");
  await next();
};
