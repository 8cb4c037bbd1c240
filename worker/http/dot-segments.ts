// "..", "." and backslashes in a request path are refused with 400, never resolved. Threat: a client (or a page
// that builds URLs from user input) reaching another resource than the one it named, e.g. files/assets/..%2f..
// climbing out of a project's files. What reaches the Worker: URL parsing (workerd locally, Cloudflare's edge in
// production, and every client's own fetch) already resolves plain "/../" and "/%2e%2e/" segments before the
// Worker runs, so those arrive as the resolved path. Every spelling that survives to here — encoded slashes or
// backslashes around dots ("..%2f", "%2e%2e%5c", "%252e%252e%252f", at any depth of encoding) — is refused, on
// the raw URL text.
import type { MiddlewareHandler } from "hono";
import { percentLayers } from "../../core/paths/percent-layers.ts";
import { badRequest } from "./errors.ts";

/** The path of a URL exactly as written, still percent-encoded (new URL() would resolve dot segments). */
export function rawPathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  const hash = url.indexOf("#", start);
  const end = Math.min(query === -1 ? url.length : query, hash === -1 ? url.length : hash);
  return url.slice(start, end);
}

/** Why this raw path is refused, or null. Each segment is looked at as written and at every layer of decoding. */
export function traversalProblem(rawPath: string): string | null {
  for (const segment of rawPath.split("/")) {
    for (const text of percentLayers(segment)) {
      if (text.includes("\\")) return "path may not contain backslashes";
      if (text.split("/").some((part) => part === "." || part === "..")) return "path may not contain '.' or '..' segments";
    }
  }
  return null;
}

export const refuseDotSegments: MiddlewareHandler = async function refuseDotSegments(c, next) {
  const problem = traversalProblem(rawPathOf(c.req.url));
  if (problem) throw badRequest(`invalid path: ${problem}`);
  await next();
};
