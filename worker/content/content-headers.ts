// The headers every response of the content origin carries, whatever route made it (errors included):
//   - a CSP that sandboxes any document into an opaque origin (`sandbox allow-scripts`, no allow-same-origin):
//     a composition's script runs, but cannot read other content pages, cookies or storage, submit forms, open
//     popups or navigate the top window; and every fetch, image, font, script or frame may come only from the
//     content origin itself (plus data:/blob:), so the page cannot even reach the API;
//   - nosniff, no Referer (a capability URL must not leak to wherever a page links), private caching;
//   - `Access-Control-Allow-Origin: *`: a sandboxed page's origin is "null", so its own fetch() of sub-compositions
//     and its fonts are cross-origin requests. Harmless here: nothing on this origin depends on cookies, the
//     unguessable capability in the URL is the only authority.
// Cookies are never set here; any Set-Cookie a handler might add is dropped.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context.ts";
import { contentOrigin } from "../http/origins.ts";

/** The content origin's Content-Security-Policy; `origin` is CONTENT_URL's origin. */
export function contentSecurityPolicy(origin: string): string {
  const own = `${origin}`;
  return [
    "sandbox allow-scripts",
    "default-src 'none'",
    // Compositions are inline scripts animating with GSAP; some libraries they load build functions at run time.
    `script-src ${own} 'unsafe-inline' 'unsafe-eval'`,
    `style-src ${own} 'unsafe-inline'`,
    `img-src ${own} data: blob:`,
    `media-src ${own} data: blob:`,
    `font-src ${own} data:`,
    `connect-src ${own} data: blob:`,
    `worker-src ${own} blob:`,
    `frame-src ${own}`,
    "form-action 'none'",
    `base-uri ${own}`,
  ].join("; ");
}

export const contentHeaders: MiddlewareHandler<AppEnv> = async function contentHeaders(c, next) {
  await next();
  const headers = c.res.headers;
  headers.delete("Set-Cookie");
  headers.set("Content-Security-Policy", contentSecurityPolicy(contentOrigin(c.env)));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "no-referrer");
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Expose-Headers", "Content-Range, Content-Length, Content-Disposition, ETag");
  headers.set("Cross-Origin-Resource-Policy", "cross-origin");
  if (!/\bprivate\b/.test(headers.get("Cache-Control") ?? "")) headers.set("Cache-Control", "private, no-store");
};
