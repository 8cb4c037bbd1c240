// The one cross-site request rule, as a pure decision. Threat: a page on any other site makes a signed-in
// person's browser send a write (a form post, a fetch) that carries their session cookie. A browser always sends
// Origin on a cross-origin POST/PUT/DELETE and on every same-origin fetch() write, and Sec-Fetch-Site on every
// request, and a page cannot forge either; so a cookie write must show Origin = the API origin, or, when Origin is
// absent or "null", Sec-Fetch-Site: same-origin. Token and key callers (Authorization, X-Studio-Token, ?token=)
// are not browsers riding on ambient credentials and are not checked; but whenever the cookie itself is used (sign-out
// reads it even when a token came along) the rule applies as for "session" (worker/auth/sessions.ts sessionCookie).
import type { Credential } from "./context.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface WriteRequest {
  method: string;
  /** How the caller was identified; only "session" (the dashboard cookie) is subject to the rule. */
  credential: Credential | null;
  origin: string | undefined;
  secFetchSite: string | undefined;
}

/** Why the request must be refused as cross-site, or null when it may go on. */
export function crossSiteRefusal(request: WriteRequest, apiOrigin: string): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  if (request.credential !== "session") return null;
  const { origin, secFetchSite } = request;
  // A browser that says the request is not same-origin is believed even when an Origin header looks right.
  if (secFetchSite !== undefined && secFetchSite !== "same-origin") {
    return `Sec-Fetch-Site is ${secFetchSite}; a cookie-authenticated write must come from ${apiOrigin}`;
  }
  if (origin !== undefined && origin !== "null") {
    return origin === apiOrigin ? null : `Origin ${origin} is not ${apiOrigin}`;
  }
  if (secFetchSite === "same-origin") return null;
  return `a cookie-authenticated write needs an Origin header of ${apiOrigin}, or use an API token`;
}
