// The studio's two origins. The API and dashboard live on one (BASE_URL); everything a project author wrote —
// files, /play pages, previews, snapshots — is served from another (CONTENT_URL) that browsers treat as a
// different *site*, so a composition's script never runs with the API origin's cookies or storage (the way code
// hosts keep user content on a separate domain).
//
// Links are always built from configuration, never from the request's Host header: a forged Host must not end
// up in a link we hand out. Unset, both default to the local `npm start` addresses.
import type { Env } from "../env.ts";

export const DEFAULT_API_ORIGIN = "http://127.0.0.1:8787";
export const DEFAULT_CONTENT_ORIGIN = "http://localhost:8787";

function originOf(value: string | undefined, fallback: string): string {
  if (!value) return fallback;
  try {
    return new URL(value).origin;
  } catch {
    return fallback;
  }
}

/** Origin of the API and dashboard, e.g. `https://studio.example.com` (no trailing slash). */
export function apiOrigin(env: Pick<Env, "BASE_URL">): string {
  return originOf(env.BASE_URL, DEFAULT_API_ORIGIN);
}

/** Origin of user content, e.g. `https://studio-content.example.net` (no trailing slash). */
export function contentOrigin(env: Pick<Env, "CONTENT_URL">): string {
  return originOf(env.CONTENT_URL, DEFAULT_CONTENT_ORIGIN);
}

/** True when a request was addressed to the content origin's host (routing is by host, then path). */
export function isContentHost(env: Pick<Env, "CONTENT_URL">, requestUrl: string): boolean {
  return new URL(requestUrl).host === new URL(contentOrigin(env)).host;
}
