// Applies the cross-site rule (csrf-rule.ts). `refuseCrossSiteCookieUse` is called by the one reader of the session
// cookie (worker/auth/sessions.ts `sessionCookie`), so every handler that acts on the cookie obeys the rule, whatever
// else the request carries; `refuseCrossSiteWrites` checks again, app-wide, after `identify` has said how the caller
// signed in.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Credential } from "./context.ts";
import { crossSiteRefusal } from "./csrf-rule.ts";
import { forbidden } from "./errors.ts";
import { apiOrigin } from "./origins.ts";

/** Throws the 403 when a request made with this credential breaks the cross-site rule. */
function refuseCrossSite(c: Context<AppEnv>, credential: Credential | null): void {
  const refusal = crossSiteRefusal(
    {
      method: c.req.method,
      credential,
      origin: c.req.header("Origin"),
      secFetchSite: c.req.header("Sec-Fetch-Site"),
    },
    // Never the request's own origin: its Host header is the caller's to choose.
    apiOrigin(c.env),
  );
  if (refusal) throw forbidden(`forbidden: cross-site request refused (${refusal})`, "cross_site_refused");
}

/** For the session cookie's reader: this request may act on the cookie, or a 403 is thrown. */
export function refuseCrossSiteCookieUse(c: Context<AppEnv>): void {
  refuseCrossSite(c, "session");
}

export const refuseCrossSiteWrites: MiddlewareHandler<AppEnv> = async function refuseCrossSiteWrites(c, next) {
  refuseCrossSite(c, c.get("credential"));
  await next();
};
