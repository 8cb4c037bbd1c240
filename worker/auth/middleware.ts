// Who may call a route, once authenticate.ts has set the caller: `requireUser` and `currentUser` turn a missing
// caller into the 401 with the reason authenticate.ts recorded. And where a request's token is read from.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context.ts";
import { unauthorized } from "../http/errors.ts";

/** The token a request carries, in the order the API reference gives. */
export function presentedToken(req: { header(name: string): string | undefined; query(name: string): string | undefined }): string | null {
  const auth = req.header("Authorization");
  if (auth) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return match?.[1] ?? auth.trim();
  }
  return req.header("X-Studio-Token")?.trim() || req.query("token")?.trim() || null;
}

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
