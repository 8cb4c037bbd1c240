// 405 for a path the API serves with other methods: a client that sends PATCH where only PUT exists learns which
// methods the path takes (the Allow header) instead of a 404 that says the path is wrong. The routes are read from
// the app itself (app.routes), so a new route is covered without a list to keep in step.
import type { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { type ApiError, methodNotAllowed } from "./errors.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

/** A lookup from path to the methods routes declare for it; built once, on first use, when every route exists. */
export function methodsOf(app: Pick<Hono, "routes">): (path: string) => string[] {
  let router: TrieRouter<string> | null = null;
  return (path) => {
    if (!router) {
      router = new TrieRouter<string>();
      // Middleware (app.use) and catch-alls are registered for ALL methods: they say nothing about a path's methods.
      for (const route of app.routes) if (route.method !== "ALL") router.add(route.method, route.path, route.method);
    }
    const found = router;
    return METHODS.filter((method) => found.match(method === "HEAD" ? "GET" : method, path)[0].length > 0);
  };
}

/** The 405 (with Allow) when `path` is served under other methods only; null when it is not served at all. */
export function wrongMethod(methods: (path: string) => string[], method: string, path: string): ApiError | null {
  const allowed = methods(path);
  return allowed.length > 0 && !allowed.includes(method) ? methodNotAllowed(method, allowed) : null;
}
