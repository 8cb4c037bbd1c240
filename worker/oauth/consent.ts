// GET and POST /oauth/authorize: the authorization endpoint, on the dashboard's origin. GET validates the request
// (client, exact redirect URI, PKCE S256, resource) with the library, sends a person who is not signed in to sign
// in and back, then shows the consent page; POST approves (the grant: the scopes ticked, the person in its props)
// or refuses (access_denied back to the client). Defences: the request is kept server-side and the form carries
// only a one-time handle bound to this browser (the library's __Host- cookie) and a nonce bound to the session
// (consent-nonce.ts); the POST obeys the app's cross-site rule (worker/http/csrf.ts, applied to every cookie
// write) and needs the session; the page cannot be framed and runs no script. A client named by a metadata
// document URL is fetched only for a signed-in person, counted per person, and never from the studio's own
// origins (client-metadata-url.ts): an anonymous request goes to sign-in before anything is fetched.
import { AuthorizationError, CimdFetchError, authorizationErrorRedirect, type AuthRequest, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import type { Context } from "hono";
import { sessionCookie } from "../auth/sessions.ts";
import { sha256Hex } from "../auth/tokens.ts";
import { tokenSecret } from "../http/config.ts";
import type { AppEnv, User } from "../http/context.ts";
import { messagePage } from "../http/message-page.ts";
import { readBoundedText } from "../http/read-body.ts";
import { escapeHtml } from "../../core/composition/escape-html.ts";
import { clip, consentPage, MAX_CLIENT_NAME } from "./consent-page.ts";
import { consentNonce, nonceMatches } from "./consent-nonce.ts";
import type { GrantProps } from "./mcp-credential.ts";
import { confirmedCaller } from "../auth/authenticate.ts";
import { isMetadataDocumentUrl, ownOriginProblem } from "./client-metadata-url.ts";
import { metadataFetchLimitOf, spendMetadataFetch } from "./metadata-fetch-limit.ts";
import { authorizationServer } from "./provider.ts";
import { openDb } from "../db/client.ts";
import { knownScopes, SCOPE_NAMES } from "./scopes.ts";

/** Largest consent form accepted (a handle, a nonce, four scopes and a decision fit many times over). */
const MAX_FORM_BYTES = 4096;

/** What grant listings show of the client (grants.ts), kept with the grant (storage-visible, not secret). */
export interface GrantMetadata {
  clientName: string;
  redirectHost: string;
}

/** A message page (title and escaped body) for what cannot be shown as consent. */
function page(c: Context<AppEnv>, status: 400 | 403 | 429, title: string, body: string, extra?: Headers): Response {
  return html(c, status, messagePage(title, body), extra);
}

/**
 * An HTML answer that cannot be framed, cached or run script. `redirectOrigin`: the client's redirect origin, which
 * the consent form's post is redirected to (Chromium applies form-action to that redirect too).
 */
function html(c: Context<AppEnv>, status: 200 | 400 | 403 | 429, markup: string, extra?: Headers, redirectOrigin = ""): Response {
  const headers = new Headers(extra);
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Content-Security-Policy", `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${redirectOrigin ? ` ${redirectOrigin}` : ""}; frame-ancestors 'none'; base-uri 'none'`);
  const out = c.body(markup, status);
  for (const [name, value] of headers) out.headers.append(name, value);
  return out;
}

/** The session's hash, for the nonce: null when the request is not the signed-in dashboard session. */
async function sessionHash(c: Context<AppEnv>): Promise<string | null> {
  if (c.get("credential") !== "session" || !c.get("user")) return null;
  const cookie = sessionCookie(c);
  return cookie ? sha256Hex(cookie) : null;
}

/** A failure the library names: back to the client when it validated the redirect URI, else a page here. */
function refusal(c: Context<AppEnv>, err: unknown): Response {
  if (err instanceof AuthorizationError && err.redirectTo) return c.redirect(err.redirectTo, 302);
  if (err instanceof AuthorizationError) return page(c, 400, "This connection request is not valid", escapeHtml(clip(err.description ?? err.message, 300)));
  if (err instanceof CimdFetchError) return page(c, 400, "This app could not be verified", "Its client metadata document could not be fetched or is not valid.");
  throw err;
}

/** PKCE with S256 for every client, public or confidential (the library requires it of public ones only). */
function withoutPkce(request: AuthRequest): boolean {
  return !request.codeChallenge || request.codeChallengeMethod !== "S256";
}

/** Sign in first, then back to this very request. */
function signInFirst(c: Context<AppEnv>): Response {
  const here = new URL(c.req.url);
  return c.redirect(`/?next=${encodeURIComponent(here.pathname + here.search)}#sign-in`, 302);
}

/**
 * Before a client named by a metadata document URL is fetched: never the studio's own origins, never for someone
 * who is not signed in, and at most so many per person per window. null when the fetch may go ahead.
 */
async function beforeMetadataFetch(c: Context<AppEnv>, clientIds: string[], signedIn: User | null): Promise<Response | null> {
  const urls = clientIds.filter(isMetadataDocumentUrl);
  if (urls.length === 0) return null;
  for (const url of urls) {
    const problem = ownOriginProblem(c.env, url);
    if (problem) return page(c, 400, "This app cannot be verified", `${escapeHtml(problem)}.`);
  }
  if (!signedIn) return signInFirst(c);
  const retryAfter = await spendMetadataFetch(openDb(c.env.DB), metadataFetchLimitOf(c.env), signedIn.id);
  if (retryAfter !== null) {
    return page(c, 429, "Too many app connections", `You started too many connections to apps that identify themselves by a web address. Try again in ${retryAfter} s.`, new Headers({ "Retry-After": String(retryAfter) }));
  }
  // The library fetches on this person's behalf: only once their credential is confirmed (at once: the spend above
  // carried the check).
  await confirmedCaller(c);
  return null;
}

export async function showConsent(c: Context<AppEnv>): Promise<Response> {
  const session = await sessionHash(c);
  const user = session ? (c.get("user") ?? null) : null;
  const stop = await beforeMetadataFetch(c, new URL(c.req.url).searchParams.getAll("client_id"), user);
  if (stop) return stop;
  const oauth = authorizationServer(c.env).getOAuthApi(c.env);
  let request: AuthRequest;
  try {
    request = await oauth.parseAuthRequest(c.req.raw);
  } catch (err) {
    return refusal(c, err);
  }
  if (withoutPkce(request)) return c.redirect(authorizationErrorRedirect(request, "invalid_request", "PKCE with code_challenge_method=S256 is required"), 302);
  if (!session || !user) return signInFirst(c);
  try {
    const details = await oauth.describeConsent(request);
    const consent = await oauth.beginConsent(request);
    const asked = knownScopes(details.scope);
    const redirect = new URL(details.redirectUri);
    const markup = consentPage({
      clientName: details.clientName,
      clientDomain: details.clientDomain,
      redirectHost: details.redirectHost,
      redirectIsLoopback: details.redirectIsLoopback,
      checked: asked.length > 0 ? asked : SCOPE_NAMES,
      handle: consent.handle,
      nonce: await consentNonce(tokenSecret(c.env), session, consent.handle),
      userName: user.name,
    });
    return html(c, 200, markup, consent.headers, redirect.protocol === "https:" || redirect.protocol === "http:" ? redirect.origin : "");
  } catch (err) {
    return refusal(c, err);
  }
}

/** The posted form, bounded (413 past the limit, read no further); null when it is not a form. */
async function readForm(c: Context<AppEnv>): Promise<URLSearchParams | null> {
  if (!(c.req.header("Content-Type") ?? "").startsWith("application/x-www-form-urlencoded")) return null;
  return new URLSearchParams(await readBoundedText(c.req.raw, MAX_FORM_BYTES, ""));
}

export async function answerConsent(c: Context<AppEnv>): Promise<Response> {
  const session = await sessionHash(c);
  const user = c.get("user");
  if (!session || !user) return page(c, 403, "Sign in first", "Connecting an app needs you signed in to the studio in this browser. Start again from the app.");
  const form = await readForm(c);
  if (!form) return page(c, 400, "This form is not valid", "Start again from the app.");
  const handle = form.get("handle") ?? "";
  const secret = tokenSecret(c.env);
  if (!handle || !(await nonceMatches(secret, session, handle, form.get("nonce") ?? ""))) {
    return page(c, 403, "This consent form is not yours", "It expired, was opened in another session, or did not come from this studio. Start again from the app.");
  }
  const oauth = authorizationServer(c.env).getOAuthApi(c.env);
  try {
    if (form.get("decision") !== "approve") {
      const denied = await oauth.denyConsent(c.req.raw, handle);
      return new Response(null, { status: 302, headers: denied.headers });
    }
    const scope = knownScopes(form.getAll("scope"));
    if (scope.length === 0) return page(c, 400, "Choose what the app may do", "Tick at least one permission, or Deny. Start again from the app.");
    const approved = await oauth.approveConsent(c.req.raw, handle, { scope });
    const redirectTo = await grant(oauth, approved.request, user);
    approved.headers.set("Location", redirectTo);
    return new Response(null, { status: 302, headers: approved.headers });
  } catch (err) {
    return refusal(c, err);
  }
}

/** Stores the grant (replacing this person's earlier grant to the same client) and returns the redirect with the code. */
async function grant(oauth: OAuthHelpers, request: AuthRequest, user: User): Promise<string> {
  const details = await oauth.describeConsent(request);
  const metadata: GrantMetadata = { clientName: clip(details.clientName, MAX_CLIENT_NAME), redirectHost: clip(details.redirectHost, 120) };
  const props: GrantProps = { user };
  const { redirectTo } = await oauth.completeAuthorization({ request, userId: user.id, metadata, scope: knownScopes(request.scope), props });
  return redirectTo;
}
