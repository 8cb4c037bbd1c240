// Who is calling: a token (Authorization: Bearer, X-Studio-Token or ?token=), else the dashboard session cookie.
// `identify` never rejects; `requireUser` and friends turn a missing caller into a 401 with the reason.
import type { MiddlewareHandler } from "hono";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { unauthorized } from "../http/errors.ts";
import { resolverFor } from "./resolvers.ts";
import { sessionCookie, sessionUser } from "./sessions.ts";
import { kindOfToken, sha256Hex, type TokenKind } from "./tokens.ts";

/** The token a request carries, in the order the API reference gives. */
export function presentedToken(req: { header(name: string): string | undefined; query(name: string): string | undefined }): string | null {
  const auth = req.header("Authorization");
  if (auth) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return match?.[1] ?? auth.trim();
  }
  return req.header("X-Studio-Token")?.trim() || req.query("token")?.trim() || null;
}

/** Why a valid credential of another kind cannot act as a user: the 401 names it, not "missing token". */
const NOT_A_USER: Record<Exclude<TokenKind, "user">, string> = {
  bot: "a bot key cannot be used on studio routes; use a personal token",
  node: "a render-node key cannot be used on studio routes; use a personal token",
};

export const identify: MiddlewareHandler<AppEnv> = async function identify(c, next) {
  c.set("user", null);
  c.set("bot", null);
  c.set("node", null);
  c.set("credential", null);
  c.set("token", null);
  c.set("authProblem", "missing token");
  const db = openDb(c.env.DB);
  const token = presentedToken(c.req);
  if (token) {
    const kind = kindOfToken(token);
    const resolver = kind ? resolverFor(kind) : undefined;
    const caller = resolver ? await resolver(db, await sha256Hex(token)) : null;
    if (caller) {
      for (const [key, value] of Object.entries(caller)) c.set(key as keyof typeof caller, value as never);
      if (kind === "user") c.set("token", token);
      else if (kind) c.set("authProblem", NOT_A_USER[kind]);
    } else {
      c.set("authProblem", "invalid or revoked token");
    }
  } else {
    const cookie = sessionCookie(c);
    const user = cookie ? await sessionUser(db, cookie) : null;
    if (user) {
      c.set("user", user);
      c.set("credential", "session");
    } else if (cookie) {
      c.set("authProblem", "session expired, sign in again");
    }
  }
  await next();
};

export const requireUser: MiddlewareHandler<AppEnv> = async function requireUser(c, next) {
  if (!c.get("user")) throw unauthorized(c.get("authProblem"));
  await next();
};

/** The signed-in user, for handlers behind requireUser. */
export function currentUser(c: { get(key: "user"): AppEnv["Variables"]["user"] }) {
  const user = c.get("user");
  if (!user) throw unauthorized("missing token");
  return user;
}
