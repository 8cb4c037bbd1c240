// The studio's two origins. The API and dashboard live on one (BASE_URL); everything a project author wrote —
// files, /play pages, previews, snapshots — is served from another (CONTENT_URL) that browsers treat as a
// different *site*, so a composition's script never runs with the API origin's cookies or storage (the way code
// hosts keep user content on a separate domain).
//
// Links are always built from configuration, never from the request's Host header: a forged Host must not end
// up in a link we hand out. Both are settings (worker/config/settings.ts): unset, they are the local `npm start`
// addresses; a value that is not an origin, or a CONTENT_URL on BASE_URL's host, is a configuration error.
import { configOf } from "../config/config-of.ts";
import type { Env } from "../env.ts";

/** Origin of the API and dashboard, e.g. `https://studio.example.com` (no trailing slash). */
export function apiOrigin(env: Env): string {
  return configOf(env).BASE_URL;
}

/** Origin of user content, e.g. `https://studio-content.example.net` (no trailing slash). */
export function contentOrigin(env: Env): string {
  return configOf(env).CONTENT_URL;
}

/** True when a request was addressed to the content origin's host (routing is by host, then path). */
export function isContentHost(env: Env, requestUrl: string): boolean {
  return new URL(requestUrl).host === new URL(contentOrigin(env)).host;
}
