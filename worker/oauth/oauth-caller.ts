// An OAuth grant as a caller of the REST app. The grant's access token is accepted on /mcp only (its audience);
// the MCP tools then call the REST app in-process, and each of those requests carries the grant here, attached to
// the Request object itself: nothing on the wire (no header, no token) can claim it, because only code holding
// the very Request the MCP route built can be looked up. `identifyCaller` (auth/authenticate.ts) takes the caller
// from here, and `enforceGrantScopes` refuses every route the grant's scopes do not open (route-scopes.ts).
import type { MiddlewareHandler } from "hono";
import type { AppEnv, User } from "../http/context.ts";
import { forbidden } from "../http/errors.ts";
import { routeRefusal } from "./route-scopes.ts";
import type { Scope } from "./scopes.ts";

export interface GrantCaller {
  user: User;
  scopes: readonly Scope[];
  clientId: string;
  grantId: string;
}

const carried = new WeakMap<Request, GrantCaller>();

/** Marks an in-process request (worker/mcp/rest-client.ts) as made by this grant. */
export function carryGrant(request: Request, caller: GrantCaller): void {
  carried.set(request, caller);
}

/** The grant an in-process request was made by, or null for every request that came from outside. */
export function grantOf(request: Request): GrantCaller | null {
  return carried.get(request) ?? null;
}

/** After identifyCaller: a grant reaches only the routes its scopes open; 403 insufficient_scope otherwise. */
export const enforceGrantScopes: MiddlewareHandler<AppEnv> = async function enforceGrantScopes(c, next) {
  if (c.get("credential") === "oauth") {
    const refusal = routeRefusal(c.req.method, c.req.path, c.get("scopes") as Scope[]);
    if (refusal) throw forbidden(refusal, "insufficient_scope");
  }
  await next();
};
