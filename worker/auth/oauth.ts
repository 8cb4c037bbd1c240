// GitHub and Google sign-in. arctic is deprecated upstream, so this is the only file that imports it.
// State (and Google's PKCE verifier) ride in short-lived HttpOnly cookies and are checked on the callback.
import { setPrivateCookie } from "../http/cookies.ts";
import { ArcticFetchError, decodeIdToken, generateCodeVerifier, generateState, GitHub, Google, OAuth2RequestError } from "arctic";
import type { Context } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import * as z from "zod";
import { configOf } from "../config/config-of.ts";
import { baseUrlOf } from "../http/base-url.ts";
import type { AppEnv } from "../http/context.ts";
import { ApiError, badRequest, notFound } from "../http/errors.ts";
import type { ProviderProfile } from "./users.ts";
import { signInNext } from "../../core/http/sign-in-next.ts";
import { decodeComponent } from "../../core/parse-text.ts";

/** The page to land on after the provider's callback: the consent request that asked for sign-in, else the dashboard. */
export function afterSignIn(c: Context<AppEnv>): string {
  const stored = getCookie(c, NEXT_COOKIE);
  deleteCookie(c, NEXT_COOKIE, { path: "/auth" });
  const decoded = stored ? decodeComponent(stored) : null;
  // A cookie that is not valid percent-encoding names nowhere: the dashboard, as with no cookie.
  const next = decoded === null || decoded.ok ? signInNext(decoded?.value ?? null) : null;
  return next ?? "/";
}

export type OAuthProvider = "github" | "google";
const STATE_COOKIE = "studio_oauth_state";
const VERIFIER_COOKIE = "studio_oauth_verifier";
/** Where to go after sign-in: an MCP client's consent request that sent the person here (core/http/sign-in-next.ts). */
const NEXT_COOKIE = "studio_sign_in_next";

function clientFor(c: Context<AppEnv>, provider: OAuthProvider) {
  const redirect = `${baseUrlOf(c)}/auth/${provider}/callback`;
  // The configuration schema sets both halves of a pair or neither (worker/config/setting-rules.ts).
  const config = configOf(c.env);
  if (provider === "github" && config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET) {
    return { provider, client: new GitHub(config.GITHUB_CLIENT_ID, config.GITHUB_CLIENT_SECRET, redirect) } as const;
  }
  if (provider === "google" && config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET) {
    return { provider, client: new Google(config.GOOGLE_CLIENT_ID, config.GOOGLE_CLIENT_SECRET, redirect) } as const;
  }
  throw notFound(`${provider} sign-in is not configured`);
}

function setShortCookie(c: Context<AppEnv>, name: string, value: string) {
  setPrivateCookie(c, name, value, { path: "/auth", maxAgeSeconds: 600 });
}

/** The query of a sign-in start: where to go afterwards (a consent request of an MCP client); nothing else is read. */
export const signInQuery = () => z.looseObject({ next: z.string().optional() });

/**
 * The query of a provider's redirect back. Loose: providers add their own parameters (Google's `scope`, `authuser`,
 * `prompt`; GitHub's `error_uri`), which are not ours to refuse.
 */
export const providerReplyQuery = () =>
  z.looseObject({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() });
export type ProviderReply = z.output<ReturnType<typeof providerReplyQuery>>;

export function beginOAuth(c: Context<AppEnv>, provider: OAuthProvider, query: z.output<ReturnType<typeof signInQuery>>): Response {
  const oauth = clientFor(c, provider);
  const state = generateState();
  setShortCookie(c, STATE_COOKIE, state);
  const next = signInNext(query.next);
  if (next) setShortCookie(c, NEXT_COOKIE, encodeURIComponent(next));
  else deleteCookie(c, NEXT_COOKIE, { path: "/auth" });
  if (oauth.provider === "github") {
    return c.redirect(oauth.client.createAuthorizationURL(state, ["read:user", "user:email"]).toString(), 302);
  }
  const verifier = generateCodeVerifier();
  setShortCookie(c, VERIFIER_COOKIE, verifier);
  return c.redirect(oauth.client.createAuthorizationURL(state, verifier, ["openid", "profile", "email"]).toString(), 302);
}

const githubUser = z.object({
  id: z.number(),
  login: z.string(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  avatar_url: z.string().nullable().optional(),
});
const googleClaims = z.object({
  sub: z.string(),
  name: z.string().optional(),
  email: z.string().optional(),
  picture: z.string().optional(),
});

/** The provider's own answer is a 400 the person can act on; an unreachable or garbled provider is a 502. */
export async function finishOAuth(c: Context<AppEnv>, provider: OAuthProvider, reply: ProviderReply): Promise<ProviderProfile> {
  try {
    return await exchangeCode(c, provider, reply);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof OAuth2RequestError) {
      throw badRequest(`sign-in failed: ${provider} refused the sign-in (${err.code}); start again from the dashboard`);
    }
    const why = err instanceof ArcticFetchError ? "could not be reached" : "answered something unexpected";
    throw new ApiError(502, `sign-in failed: ${provider} ${why}; try again in a moment`);
  }
}

async function exchangeCode(c: Context<AppEnv>, provider: OAuthProvider, { code, state, error }: ProviderReply): Promise<ProviderProfile> {
  const oauth = clientFor(c, provider);
  const expected = getCookie(c, STATE_COOKIE);
  deleteCookie(c, STATE_COOKIE, { path: "/auth" });
  // The person said no at the provider (RFC 6749 section 4.1.2.1: `error=access_denied`), or the provider refused.
  if (error !== undefined) throw badRequest(`sign-in failed: ${provider} answered ${error.slice(0, 60)}; start again from the dashboard`);
  if (!code || !state || !expected || state !== expected) {
    throw badRequest("sign-in failed: the state did not match; start again from the dashboard");
  }
  if (oauth.provider === "github") {
    const tokens = await oauth.client.validateAuthorizationCode(code);
    const res = await fetch("https://api.github.com/user", {
      headers: { Authorization: `Bearer ${tokens.accessToken()}`, "User-Agent": "studio", Accept: "application/json" },
    });
    if (!res.ok) throw new Error(`GitHub user lookup answered ${res.status}`);
    const profile = githubUser.parse((await res.json()) as unknown);
    return {
      provider: "github",
      providerUserId: String(profile.id),
      name: profile.name || profile.login,
      email: profile.email ?? null,
      avatarUrl: profile.avatar_url ?? null,
    };
  }
  const verifier = getCookie(c, VERIFIER_COOKIE);
  deleteCookie(c, VERIFIER_COOKIE, { path: "/auth" });
  if (!verifier) throw badRequest("sign-in failed: the PKCE verifier is missing; start again from the dashboard");
  const tokens = await oauth.client.validateAuthorizationCode(code, verifier);
  const claims = googleClaims.parse(decodeIdToken(tokens.idToken()) as unknown);
  return {
    provider: "google",
    providerUserId: claims.sub,
    name: claims.name || claims.email || "Google user",
    email: claims.email ?? null,
    avatarUrl: claims.picture ?? null,
  };
}
