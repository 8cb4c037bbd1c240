// The app's documented operations, read from the app itself: every route hono serves (method and path as
// registered, prefixes included) with the declaration its handler carries (worker/http/route.ts). A route with no
// declaration is an error, so nothing is served undescribed.
import type { Hono } from "hono";
import { declarationOf, type DeclaredRoute } from "../http/route.ts";
import type { Method } from "./operation.ts";

export interface DocumentedOperation {
  method: Method;
  /** OpenAPI path syntax: /api/projects/{slug}; a trailing * (file paths) is {path}. */
  path: string;
  /** The path parameters, in the order the path names them. */
  params: string[];
  route: DeclaredRoute;
}

/** hono's path syntax to OpenAPI's: /:slug → /{slug}; a trailing * → /{path}. */
const toTemplate = (path: string) => path.replace(/:(\w+)/g, "{$1}").replace(/\/\*$/, "/{path}");

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function documentedOperations(app: Hono<any>): DocumentedOperation[] {
  const found = new Map<string, DocumentedOperation | null>();
  for (const r of app.routes) {
    if (r.method === "ALL") continue; // middleware (.use) and the fallbacks
    const path = toTemplate(r.path);
    const key = `${r.method} ${path}`;
    const route = declarationOf(r.handler);
    // Several handlers share a method and path (middleware such as requireUser, idempotency); one is the endpoint.
    if (route) {
      if (found.get(key)) throw new Error(`${key} has two declarations`);
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      // A declared parameter the path does not name would never be given: the handler would read undefined.
      const unnamed = Object.keys(route.request().params?.shape ?? {}).filter((name) => !params.includes(name));
      if (unnamed.length) throw new Error(`${key} declares path parameters its path does not name: ${unnamed.join(", ")}`);
      found.set(key, { method: r.method.toLowerCase() as Method, path, params, route });
    } else if (!found.has(key)) found.set(key, null);
  }
  const undeclared = [...found].filter(([, op]) => !op).map(([key]) => key);
  if (undeclared.length) throw new Error(`routes without a declaration (route() in worker/http/route.ts): ${undeclared.join(", ")}`);
  return [...found.values()] as DocumentedOperation[];
}
