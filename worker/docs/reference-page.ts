// GET /api/reference: the interactive reference (Scalar) for /api/openapi.json.
//
// Why a CDN script is allowed on this one page, and how it is contained: the reference UI (@scalar/api-reference)
// is not a dependency of the studio; @scalar/hono-api-reference only writes the HTML shell that loads it from
// jsDelivr. Script from another party must never run with the API origin's authority (the dashboard's session
// cookie lives here), so the page's CSP starts with `sandbox allow-scripts` (no allow-same-origin): the page runs
// in an opaque origin, sends no cookies, reads no storage of this origin, and reaches the API only as any other
// site would, through the open CORS of /api/* with the token the reader types. Besides that: scripts only from
// jsDelivr and the page's own nonce'd inline script, fetches only to the API origin, no frames, no forms.
import type { Context } from "hono";
import { Scalar } from "@scalar/hono-api-reference";
import type { AppEnv } from "../http/context.ts";
import { apiOrigin } from "../http/origins.ts";

const CDN = "https://cdn.jsdelivr.net";

export function referenceCsp(nonce: string, api: string): string {
  return [
    "sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox",
    "default-src 'none'",
    `script-src 'nonce-${nonce}' ${CDN}`,
    // Scalar sets inline styles at runtime; styles cannot run code.
    `style-src 'unsafe-inline' ${CDN} https://fonts.scalar.com`,
    `font-src ${CDN} https://fonts.scalar.com data:`,
    "img-src data: https:",
    `connect-src ${api}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export async function referencePage(c: Context<AppEnv>): Promise<Response> {
  const nonce = crypto.randomUUID().replaceAll("-", "");
  const api = apiOrigin(c.env);
  const render = Scalar<AppEnv>({ url: `${api}/api/openapi.json`, pageTitle: "Studio API reference", nonce, cdn: `${CDN}/npm/@scalar/api-reference` });
  const res = (await render(c, async () => undefined)) as Response;
  const page = new Response(res.body, res);
  page.headers.set("Content-Security-Policy", referenceCsp(nonce, api));
  page.headers.set("Cache-Control", "no-store");
  return page;
}
