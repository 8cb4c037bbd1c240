// The caller of a page a browser navigates to (/play/<slug>): the dashboard session cookie, or a token in a
// header. Never `?token=`: a link is something anyone can send anyone, so a token in it must not sign the person
// who opens it in as the token's owner (the API's JSON routes still accept it, as the spec says).
import type { Context } from "hono";
import { openDb } from "../db/client.ts";
import type { AppEnv, User } from "../http/context.ts";
import { presentedToken } from "./middleware.ts";
import { sessionCookie, sessionUser } from "./sessions.ts";

export async function navigationUser(c: Context<AppEnv>): Promise<User | null> {
  if (c.req.header("Authorization") !== undefined || c.req.header("X-Studio-Token") !== undefined) return c.get("user");
  const cookie = sessionCookie(c);
  if (!cookie) return null;
  // Without a token `identify` went by this same cookie: its answer stands (no second lookup).
  if (presentedToken(c.req) === null) return c.get("credential") === "session" ? c.get("user") : null;
  return sessionUser(openDb(c.env.DB), cookie);
}
