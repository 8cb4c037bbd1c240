// How a request is authenticated. Start here.
//
// 1. The credential: a token (Authorization: Bearer, X-Studio-Token or ?token=; its prefix says user, bot or node
//    key), else the dashboard's session cookie (sessions.ts applies the cross-site rule). An MCP tool's in-process
//    call made as an OAuth grant carries its checked grant instead (oauth/oauth-caller.ts). The dashboard's pages and
//    assets look no caller up.
// 2. The caller: the credential's SHA-256 hash is looked up (resolvers.ts: one SQL lookup per kind) on D1's primary,
//    never a replica (a replica may not yet know of a rotation), and the caller it names is cached in the isolate
//    (credential-cache.ts: a hash names one caller forever; only whether it is still valid can change).
// 3. A cached caller costs no round trip of its own. The request runs as that caller at once, and its environment
//    is swapped for one whose effects wait for the primary's verdict on the credential (gated-bindings.ts):
//    - D1: every call made before the verdict carries the credential guard first in its own batch (gated-d1.ts,
//      credential-guard.ts), so it commits and answers only if the credential is valid; the first to return is the
//      verdict. Reads and writes alike: nothing is guessed from SQL.
//    - R2 writes, KV writes and every Durable Object call wait for the verdict, asked on its own when no D1 call
//      has carried it yet. Code that fetches on the caller's behalf awaits `confirmedCaller(c)` first.
// 4. The answer waits for the verdict too. A credential found revoked or rotated is answered with the 401, the
//    handler's answer thrown away unsent: so it gets no data, and nothing was written, stored or called for it.
//    The handler runs once either way.
//
// Routes then say who may call them (middleware.ts: requireUser, currentUser).
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context.ts";
import { handleError } from "../http/errors.ts";
import { grantOf } from "../oauth/oauth-caller.ts";
import { credentialCache } from "./credential-cache.ts";
import { lookupStatement } from "./credential-guard.ts";
import { gatedEnv, gateOf } from "./gated-bindings.ts";
import { presentedToken } from "./middleware.ts";
import { RequestGate } from "./request-gate.ts";
import { lookupFor, type CallerPatch, type CredentialKind, type CredentialLookup } from "./resolvers.ts";
import { sessionCookie } from "./sessions.ts";
import { kindOfToken, sha256Hex, type TokenKind } from "./tokens.ts";

/** Why a valid credential of another kind cannot act as a user: the 401 names it, not "missing token". */
const NOT_A_USER: Record<Exclude<TokenKind, "user">, string> = {
  bot: "a bot key cannot be used on studio routes; use a personal token",
  node: "a render-node key cannot be used on studio routes; use a personal token",
};

const INVALID_TOKEN = "invalid or revoked token";
const SESSION_EXPIRED = "session expired, sign in again";

/** Whether a path is one the dashboard's static assets answer (no route of the API): no caller is looked up. */
export type DashboardPath = (path: string) => boolean;

/** Sets the caller (never rejects: requireUser and friends turn a missing caller into the 401), then answers. */
export function identifyCaller(isDashboardPath: DashboardPath): MiddlewareHandler<AppEnv> {
  return async function identify(c, next) {
    c.set("user", null);
    c.set("bot", null);
    c.set("node", null);
    c.set("credential", null);
    c.set("token", null);
    c.set("authProblem", "missing token");
    c.set("scopes", []);
    const grant = grantOf(c.req.raw);
    if (grant) {
      // Checked when /mcp accepted its token; its scopes are checked per route (enforceGrantScopes).
      c.set("user", grant.user);
      c.set("credential", "oauth");
      c.set("scopes", grant.scopes);
      return next();
    }
    if (isDashboardPath(c.req.path)) {
      sessionCookie(c); // only the cookie's cross-site rule applies
      return next();
    }
    const gate = await identifyFromCredential(c);
    await next();
    if (gate && !(await gate.passed())) await answerRefused(c, gate);
  };
}

/** Sets the caller the request's credential names; the gate when that caller came from the cache. */
async function identifyFromCredential(c: Context<AppEnv>): Promise<RequestGate | null> {
  const token = presentedToken(c.req);
  if (token) {
    const kind = kindOfToken(token);
    const lookup = kind ? lookupFor(kind) : undefined;
    const found = kind && lookup ? await findCaller(c, kind, lookup, await sha256Hex(token), INVALID_TOKEN) : null;
    if (!found) {
      c.set("authProblem", INVALID_TOKEN);
      return null;
    }
    for (const [key, value] of Object.entries(found.caller)) c.set(key as keyof CallerPatch, value as never);
    if (kind === "user") c.set("token", token);
    else if (kind) c.set("authProblem", NOT_A_USER[kind]);
    return found.gate;
  }
  const cookie = sessionCookie(c);
  if (!cookie) return null;
  const found = await findCaller(c, "session", lookupFor("session")!, await sha256Hex(cookie), SESSION_EXPIRED);
  if (found?.caller.user) {
    c.set("user", found.caller.user);
    c.set("credential", "session");
  } else {
    c.set("authProblem", SESSION_EXPIRED);
  }
  return found?.gate ?? null;
}

/**
 * The caller a credential hash names. Cached: at once, with the request's environment behind a new gate. Not
 * cached: one lookup on the primary, whose answer is cached.
 */
async function findCaller(
  c: Context<AppEnv>,
  kind: CredentialKind,
  lookup: CredentialLookup,
  hash: string,
  problem: string,
): Promise<{ caller: CallerPatch; gate: RequestGate | null } | null> {
  const cached = credentialCache.get(kind, hash);
  if (cached) {
    // A gate of its own, also inside another request (an MCP tool's in-process call, gated by the /mcp request's):
    // each of a waiting tool's polls asks again, so a credential rotated meanwhile ends the wait.
    const readsOnly = c.req.method === "GET" || c.req.method === "HEAD";
    const gate = new RequestGate(c.env.DB, { kind, hash, lookup, caller: cached, problem }, readsOnly);
    c.env = gatedEnv(c.env, gate);
    return { caller: cached, gate };
  }
  const row = await lookupStatement(c.env.DB, lookup, hash, Date.now()).first<Record<string, unknown>>();
  if (!row) return null;
  const caller = lookup.callerOf(row);
  credentialCache.set(kind, hash, caller);
  return { caller, gate: null };
}

/** Replaces the handler's answer, unsent, with the 401 naming the credential. */
async function answerRefused(c: Context<AppEnv>, gate: RequestGate): Promise<void> {
  await c.res.body?.cancel();
  c.res = undefined; // else hono would carry the handler's headers (cookies, ETags) over to the 401
  c.res = handleError(gate.refusal(), c);
}

/** For code that acts outside the request's bindings (an outbound fetch) on the caller's behalf: resolves once the caller is confirmed, throws the 401 when not. */
export async function confirmedCaller(c: Context<AppEnv>): Promise<void> {
  await gateOf(c.env)?.clear();
}
