// Applies the cross-site rule (csrf-rule.ts) to every request, after `identify` has said how the caller signed in:
// one check for every cookie-authenticated write of the studio, the idea board, research and sign-out.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context.ts";
import { crossSiteRefusal } from "./csrf-rule.ts";
import { forbidden } from "./errors.ts";
import { apiOrigin } from "./origins.ts";

export const refuseCrossSiteWrites: MiddlewareHandler<AppEnv> = async function refuseCrossSiteWrites(c, next) {
  const refusal = crossSiteRefusal(
    {
      method: c.req.method,
      credential: c.get("credential"),
      origin: c.req.header("Origin"),
      secFetchSite: c.req.header("Sec-Fetch-Site"),
    },
    // Never the request's own origin: its Host header is the caller's to choose.
    apiOrigin(c.env),
  );
  if (refusal) throw forbidden(`forbidden: cross-site request refused (${refusal})`, "cross_site_refused");
  await next();
};
