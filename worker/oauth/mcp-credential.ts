// An OAuth access token presented to /mcp, checked against the authorization server (two KV reads at once, no D1):
// valid, unexpired, issued for this studio's /mcp and for no other resource, and its grant not revoked (the
// revoked-grant record, revoked-grants.ts, refuses a token that a refresh racing the revocation wrote). What it yields is the
// grant: the person it acts for (kept in the grant's encrypted props at consent) and the scopes they approved.
import type { Env } from "../env.ts";
import type { User } from "../http/context.ts";
import { grantIdOf } from "./grant-token.ts";
import type { GrantCaller } from "./oauth-caller.ts";
import { authorizationServer, mcpResource } from "./provider.ts";
import { isGrantRevoked } from "./revoked-grants.ts";
import { knownScopes } from "./scopes.ts";

/** What the consent page stores with a grant (encrypted by the library with a key only the token unwraps). */
export interface GrantProps {
  user: User;
}

function isUser(value: unknown): value is User {
  const user = value as Partial<User> | null;
  return typeof user === "object" && user !== null && typeof user.id === "string" && typeof user.name === "string";
}

/** The grant an access token stands for, or null when the token is not a valid one for /mcp. */
export async function grantForToken(env: Env, token: string): Promise<GrantCaller | null> {
  const grantId = grantIdOf(token);
  if (!grantId) return null;
  const [valid, revoked] = await Promise.all([authorizationServer(env).validateToken(mcpResource(env), token, env), isGrantRevoked(env, grantId)]);
  if (revoked) return null;
  const props = valid?.props as GrantProps | undefined;
  if (!valid || !isUser(props?.user) || props.user.id !== valid.userId) return null;
  return { user: props.user, scopes: knownScopes(valid.scope), clientId: valid.clientId, grantId };
}
