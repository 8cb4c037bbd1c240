// The consent page's HTML, pure. Everything a client chose (its name, its redirect host, the scopes it asked for)
// is hostile text: escaped, and cut to a length a page can show. The page has no script and no external resource;
// its headers (consent.ts) forbid framing. The person sees who asks, where the answer goes, and each scope.
import { escapeHtml } from "../../core/composition/escape-html.ts";
import { SCOPE_NAMES, SCOPES, type Scope } from "./scopes.ts";

export const MAX_CLIENT_NAME = 80;
const MAX_HOST = 120;

/** At most `max` characters of `text`, control characters removed, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export interface ConsentView {
  clientName: string;
  /** The client's verified domain (a client ID metadata document's host), when it has one. */
  clientDomain?: string;
  redirectHost: string;
  redirectIsLoopback: boolean;
  /** The scopes checked at first: those the client asked for, or every one when it asked for none we know. */
  checked: readonly Scope[];
  handle: string;
  nonce: string;
  userName: string;
}

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}" +
  "fieldset{border:1px solid #ccc;border-radius:6px;margin:1rem 0}label{display:block;margin:.4rem 0}" +
  "small{color:#555}.warn{background:#fff4d6;padding:.5rem .75rem;border-radius:6px}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem}";

export function consentPage(view: ConsentView): string {
  const name = escapeHtml(clip(view.clientName, MAX_CLIENT_NAME) || "An unnamed app");
  const host = escapeHtml(clip(view.redirectHost, MAX_HOST));
  const origin = view.clientDomain
    ? `Published by <strong>${escapeHtml(clip(view.clientDomain, MAX_HOST))}</strong>.`
    : "This app registered itself: its name is not verified.";
  const loopback = view.redirectIsLoopback
    ? '<p class="warn">Access goes to <strong>an app on this computer</strong>. Continue only if you just started connecting from it.</p>'
    : "";
  const scopes = SCOPE_NAMES.map(
    (scope) =>
      `<label><input type="checkbox" name="scope" value="${scope}"${view.checked.includes(scope) ? " checked" : ""}> ` +
      `<strong>${scope}</strong>: ${escapeHtml(SCOPES[scope])}</label>`,
  ).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Connect ${name} to your studio</title><style>${STYLE}</style></head><body>
<h1>Allow <span id="client-name">${name}</span> to use your studio?</h1>
<p>${origin} Access will be sent to <strong id="redirect-host">${host}</strong>.</p>${loopback}
<p>Signed in as <strong>${escapeHtml(clip(view.userName, MAX_CLIENT_NAME))}</strong>. You can disconnect it any time under Connected apps.</p>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="handle" value="${escapeHtml(view.handle)}"><input type="hidden" name="nonce" value="${escapeHtml(view.nonce)}">
<fieldset><legend>What it may do</legend>${scopes}</fieldset>
<p><button type="submit" name="decision" value="approve" id="approve">Allow</button><button type="submit" name="decision" value="deny" id="deny">Deny</button></p>
</form></body></html>`;
}
