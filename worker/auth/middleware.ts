// Who is calling: a token (Authorization: Bearer, X-Studio-Token or ?token=), else the dashboard session cookie.
// `identify` never rejects; `requireUser` and friends turn a missing caller into a 401 with the reason.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context.ts";
import { unauthorized } from "../http/errors.ts";
import { credentialCache } from "./credential-cache.ts";
import { lookupStatement } from "./credential-guard.ts";
import { gateOf } from "./gated-bindings.ts";
import { lookupFor, type CallerPatch, type CredentialKind, type CredentialLookup } from "./resolvers.ts";
import { grantOf } from "../oauth/oauth-caller.ts";
import { sessionCookie } from "./sessions.ts";
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

/** Whether a path is one the dashboard's static assets answer (no route of the API): no caller is looked up. */
export type DashboardPath = (path: string) => boolean;

/**
 * Sets the caller. A credential this isolate has seen valid costs no lookup: the request runs as the cached
 * caller while its gate (request-gate.ts) asks the primary whether the credential is still valid, folded into the
 * request's own first D1 call. Otherwise one lookup on the primary, whose answer is cached.
 */
export function identifyCaller(isDashboardPath: DashboardPath): MiddlewareHandler<AppEnv> {
  return async function identify(c, next) {
    c.set("user", null);
    c.set("bot", null);
    c.set("node", null);
    c.set("credential", null);
    c.set("token", null);
    c.set("authProblem", "missing token");
    c.set("scopes", []);
    // An MCP tool's in-process call made as an OAuth grant (worker/oauth/oauth-caller.ts): the grant was checked
    // when /mcp accepted its token, and its scopes are checked per route (enforceGrantScopes).
    const grant = grantOf(c.req.raw);
    if (grant) {
      c.set("user", grant.user);
      c.set("credential", "oauth");
      c.set("scopes", grant.scopes);
      return next();
    }
    // The dashboard's pages and assets never use the caller: only the cookie's cross-site rule still applies.
    if (isDashboardPath(c.req.path)) {
      sessionCookie(c);
      return next();
    }
    const token = presentedToken(c.req);
    if (token) {
      const kind = kindOfToken(token);
      const lookup = kind ? lookupFor(kind) : undefined;
      const caller = kind && lookup ? await findCaller(c, kind, lookup, await sha256Hex(token), "invalid or revoked token") : null;
      if (caller) {
        for (const [key, value] of Object.entries(caller)) c.set(key as keyof typeof caller, value as never);
        if (kind === "user") c.set("token", token);
        else if (kind) c.set("authProblem", NOT_A_USER[kind]);
      } else {
        c.set("authProblem", "invalid or revoked token");
      }
    } else {
      const cookie = sessionCookie(c);
      const caller = cookie ? await findCaller(c, "session", lookupFor("session")!, await sha256Hex(cookie), SESSION_EXPIRED) : null;
      if (caller?.user) {
        c.set("user", caller.user);
        c.set("credential", "session");
      } else if (cookie) {
        c.set("authProblem", SESSION_EXPIRED);
      }
    }
    await next();
  };
}

const SESSION_EXPIRED = "session expired, sign in again";

/** The caller a credential hash names: from the cache (checked by the request's gate), else looked up and cached. */
async function findCaller(c: Context<AppEnv>, kind: CredentialKind, lookup: CredentialLookup, hash: string, problem: string): Promise<CallerPatch | null> {
  const cached = credentialCache.get(kind, hash);
  const gate = gateOf(c.env);
  if (cached && gate?.speculate({ kind, hash, lookup, caller: cached, problem })) return cached;
  const row = await lookupStatement(c.env.DB, lookup, hash, Date.now()).first<Record<string, unknown>>();
  if (!row) return null;
  const caller = lookup.callerOf(row);
  credentialCache.set(kind, hash, caller);
  return caller;
}

/** Identifies every request's caller (no path is left to the dashboard): for apps without static assets. */
export const identify = identifyCaller(() => false);

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
