// Security headers on every response of the API origin (BASE_URL: API, docs, dashboard). The content origin
// (CONTENT_URL) sets its own, for user content. A header a route set itself (say a download's `CSP: sandbox`) is
// kept: these are defaults, never overrides.
//
// Threats and the header that answers each: a browser guessing an active type from bytes (nosniff); another site
// framing the dashboard to trick clicks (X-Frame-Options DENY, frame-ancestors 'none'); URLs leaking to other
// sites through Referer (strict-origin-when-cross-origin: other sites see the origin only; not stricter, because
// "no-referrer" would make browsers send `Origin: null` on same-origin writes, which the CSRF rule refuses);
// script injected into the dashboard (its CSP: only the dashboard's own scripts); an API response rendered as a
// page, e.g. an SVG opened directly (a deny-all CSP on everything that is not a page); a downgrade to http (HSTS
// when BASE_URL is https).
import type { Context, MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { Env } from "../env.ts";
import type { AppEnv } from "./context.ts";
import { apiOrigin, contentOrigin, isContentHost } from "./origins.ts";
import { attempt } from "../../core/parse-text.ts";

/** For every response of the API origin that is not a page: nothing may load, nothing may frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The dashboard's pages (dashboard/dist): its own scripts and styles only, no inline script, API calls to itself.
 * Images: its own, data: URIs (the favicon) and user content, never another site: an image anyone can name (a
 * research record's cover) would otherwise be a request from every viewer to a site of the writer's choosing (a
 * tracking pixel); the dashboard shows such covers as links. Media and frames: its own renders and user content,
 * and the MediaSource a running render's live view plays (a blob: URL).
 */
export function dashboardCsp(env: Env): string {
  const content = contentOrigin(env);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: ${content}`,
    // blob: for the live view's MediaSource (hls.js, dashboard/src/components/live-player.tsx).
    `media-src 'self' blob: ${content}`,
    `frame-src ${content}`,
    "connect-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join("; ");
}

const byOrigin = new Map<string, MiddlewareHandler>();

/** hono's secureHeaders, configured once per API origin (HSTS only makes sense, and is only sent, over https). */
function headersFor(env: Env): MiddlewareHandler {
  const origin = apiOrigin(env);
  let middleware = byOrigin.get(origin);
  if (!middleware) {
    middleware = secureHeaders({
      xContentTypeOptions: "nosniff",
      xFrameOptions: "DENY",
      referrerPolicy: "strict-origin-when-cross-origin",
      strictTransportSecurity: origin.startsWith("https:") ? "max-age=31536000" : false,
      // Renders may be embedded elsewhere with ?token= (a <video> on another site): resources stay embeddable.
      crossOriginResourcePolicy: false,
      overwrite: false,
    });
    byOrigin.set(origin, middleware);
  }
  return middleware;
}

/** A response fetched from a binding (assets, a Durable Object) has read-only headers: copy it before adding. */
function makeHeadersWritable(c: Context): void {
  // Setting the one header every response gets anyway is the probe: it throws when the headers are read-only.
  const probe = attempt(() => c.res.headers.set("X-Content-Type-Options", "nosniff"));
  if (!probe.ok) c.res = new Response(c.res.body, c.res); // read-only: a copy's headers are writable

}

/** The /play page runs the author's composition; its policy is the content origin's to set, not this default. */
const isPlayPage = (path: string) => path === "/play" || path.startsWith("/play/");

export const apiSecureHeaders: MiddlewareHandler<AppEnv> = async function apiSecureHeaders(c, next) {
  if (isContentHost(c.env, c.req.url)) return next();
  await headersFor(c.env)(c, async () => {
    await next();
    makeHeadersWritable(c);
    if (!c.res.headers.has("Content-Security-Policy") && !isPlayPage(c.req.path)) {
      c.res.headers.set("Content-Security-Policy", API_CSP);
    }
  });
};
