// GET /api/reference: the interactive reference (Swagger UI) for /api/openapi.json.
//
// The UI comes from the npm package swagger-ui-dist, copied into the dashboard's assets at build time
// (core/docs/reference-ui.ts), so the page works offline and loads nothing from another party. It still runs a
// large third-party bundle, so it never runs with the API origin's authority (the dashboard's session cookie lives
// here): the CSP starts with `sandbox allow-scripts` (no allow-same-origin), so the page runs in an opaque origin,
// sends no cookies, reads no storage of this origin, and reaches the API only as any other site would, through the
// open CORS of /api/* with the token the reader types under "Authorize". Besides that: scripts only from the UI's
// folder and the page's own nonce'd inline script, fetches only to the API origin, no frames, no form navigation.
import type { Context } from "hono";
import { REFERENCE_UI_PATH } from "../../core/docs/reference-ui.ts";
import type { AppEnv } from "../http/context.ts";
import { apiOrigin } from "../http/origins.ts";

export function referenceCsp(nonce: string, api: string): string {
  const ui = `${api}${REFERENCE_UI_PATH}/`;
  return [
    // allow-forms: Swagger UI's Authorize dialog is a form whose submit event it handles itself; without it the
    // browser drops the submit before any script sees it. form-action 'none' still forbids any form navigation.
    "sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox",
    "default-src 'none'",
    `script-src 'nonce-${nonce}' ${ui}`,
    // Swagger UI sets inline styles at runtime; styles cannot run code.
    `style-src 'unsafe-inline' ${ui}`,
    "img-src data:",
    `connect-src ${api}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function referenceHtml(nonce: string, api: string): string {
  const ui = `${api}${REFERENCE_UI_PATH}`;
  // The options as JSON inside the inline script: "<" escaped so no value can close the script element.
  const options = JSON.stringify({
    url: `${api}/api/openapi.json`,
    dom_id: "#reference",
    deepLinking: true,
    // No call to validator.swagger.io, and nothing kept in storage (the opaque origin has none anyway).
    validatorUrl: null,
    persistAuthorization: false,
    tryItOutEnabled: true,
  }).replaceAll("<", "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Studio API reference</title>
<link rel="stylesheet" href="${escapeHtml(ui)}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script nonce="${nonce}" src="${escapeHtml(ui)}/swagger-ui-bundle.js"></script>
<script nonce="${nonce}">window.ui = SwaggerUIBundle(${options});</script>
</body>
</html>
`;
}

export function referencePage(c: Context<AppEnv>): Response {
  const nonce = crypto.randomUUID().replaceAll("-", "");
  const api = apiOrigin(c.env);
  return new Response(referenceHtml(nonce, api), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": referenceCsp(nonce, api),
      "Cache-Control": "no-store",
    },
  });
}
