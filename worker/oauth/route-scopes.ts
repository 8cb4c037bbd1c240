// Which REST routes an OAuth grant may reach, and with which scopes. An OAuth access token is accepted only on /mcp;
// the MCP tools then call the REST app in-process as the grant (oauth-caller.ts), and every such call is checked
// here. Default deny: a route not named below (token rotation, bot and node keys, the webhook signing secret,
// share links, sign-in, the grants themselves) is closed to OAuth whatever the scopes, so a grant can never turn
// itself into a personal token or reach an account setting. Pure, so the table is tested route by route.
import type { Scope } from "./scopes.ts";

/** The scopes a route accepts (any one of them is enough), "public" for routes anyone may call, or null: closed. */
export type RouteRule = readonly Scope[] | "public" | null;

const READ: RouteRule = ["projects:read"];
const WRITE: RouteRule = ["projects:write"];
const RENDER: RouteRule = ["render"];
const READ_OR_RENDER: RouteRule = ["projects:read", "render"];
const IDEAS: RouteRule = ["ideas"];

/** Public reads: the same answer for anyone, so no scope is needed. */
const PUBLIC_GETS = new Set(["/api/health", "/api/ping", "/api/docs", "/api/reference", "/api/openapi.json", "/api/stats", "/api/metrics", "/api/groups"]);

/** Project sub-resources that run on a render node: their writes need `render`, their reads either scope. */
const NODE_WORK = new Set(["render", "batch", "snapshot", "check", "preview"]);

/** The rule for one request the REST app received from an OAuth grant (path as the router sees it, no query). */
export function routeRule(method: string, path: string): RouteRule {
  const read = method === "GET" || method === "HEAD";
  const parts = path.split("/").slice(1);
  if (read && PUBLIC_GETS.has(path)) return "public";
  if (read && parts[0] === "api" && parts[1] === "research") return "public";
  if (parts[0] === "api" && parts[1] === "projects") return projectRule(read, method, parts.slice(2));
  if (parts[0] === "api" && parts[1] === "renders") return read ? READ : null;
  if (parts[0] === "renders" && parts.length === 2) return read ? READ : method === "DELETE" ? WRITE : null;
  // A render's poster: read like its file (renders/poster.ts).
  if (parts[0] === "renders" && parts.length === 3 && parts[2] === "poster") return read ? READ : null;
  // Who you are and your storage, without the personal token (auth/me-routes.ts leaves it out for a grant).
  if (path === "/api/me") return read ? READ : null;
  if (parts[0] === "api" && ["ideas", "comments", "enrichments"].includes(parts[1] ?? "")) return IDEAS;
  return null;
}

function projectRule(read: boolean, method: string, rest: string[]): RouteRule {
  if (rest.length <= 1) return read ? READ : method === "POST" || method === "DELETE" ? WRITE : null;
  const sub = rest[1] ?? "";
  if (NODE_WORK.has(sub)) return read ? READ_OR_RENDER : RENDER;
  // Lint reads the files and runs nothing: a read, whatever its method.
  if (sub === "lint") return READ;
  if (sub === "files" || sub === "webhook" || sub === "events") return read ? READ : WRITE;
  // Share links hand the project to anyone holding the link: only the person decides that, never a grant.
  return null;
}

/** Why a grant with `granted` may not make this request, or null when it may. */
export function routeRefusal(method: string, path: string, granted: readonly Scope[]): string | null {
  const rule = routeRule(method.toUpperCase(), path);
  if (rule === "public") return null;
  if (rule === null) return `forbidden: ${method} ${path.slice(0, 200)} is not open to OAuth-connected apps; use a personal token`;
  if (rule.some((scope) => granted.includes(scope))) return null;
  return `forbidden: this app was not granted the ${rule.join(" or ")} scope`;
}
