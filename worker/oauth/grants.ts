// A person's OAuth grants ("connected apps"): listed for the dashboard, revoked one by one, and all revoked when
// the person rotates their personal token (auth/me-routes.ts), so rotating is the one "sign every agent out" switch.
// Revoking a grant records it as revoked (revoked-grants.ts: every later use of any token of it is refused, one a
// racing refresh writes included) and then deletes it and its tokens from KV; KV is eventually consistent, so
// another location may still accept an access token for up to a minute (docs: the security model).
import type { Env } from "../env.ts";
import type { GrantMetadata } from "./consent.ts";
import { authorizationServer, issuerProblem } from "./provider.ts";
import { recordRevokedGrant } from "./revoked-grants.ts";
import { knownScopes } from "./scopes.ts";

/** The most grants listed (and revoked on rotation) per page of the library's listing. */
const PAGE = 100;
/** A person has one grant per client; past this many pages something is wrong, and the rotation says so. */
const MAX_PAGES = 50;

export interface ConnectedApp {
  id: string;
  clientName: string;
  redirectHost: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export async function listConnectedApps(env: Env, userId: string): Promise<ConnectedApp[]> {
  const oauth = authorizationServer(env).getOAuthApi(env);
  const apps: ConnectedApp[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await oauth.listUserGrants(userId, { limit: PAGE, cursor });
    for (const grant of listed.items) {
      const meta = (grant.metadata ?? {}) as Partial<GrantMetadata>;
      apps.push({
        id: grant.id,
        clientName: typeof meta.clientName === "string" ? meta.clientName : grant.clientId.slice(0, 80),
        redirectHost: typeof meta.redirectHost === "string" ? meta.redirectHost : "",
        scopes: knownScopes(grant.scope),
        createdAt: iso(grant.createdAt),
        expiresAt: grant.expiresAt ? iso(grant.expiresAt) : null,
      });
    }
    if (!listed.cursor) return apps;
    cursor = listed.cursor;
  }
  throw new Error(`more than ${PAGE * MAX_PAGES} OAuth grants for one person`);
}

/** Revokes one grant of this person (its tokens stop working); false when they hold no grant by that id. */
export async function revokeConnectedApp(env: Env, userId: string, grantId: string): Promise<boolean> {
  const apps = await listConnectedApps(env, userId);
  if (!apps.some((app) => app.id === grantId)) return false;
  await revokeGrantForGood(env, userId, grantId, "disconnected");
  return true;
}

/** Revokes every grant of this person; the count revoked. A failure throws: rotation never reports false success. */
export async function revokeAllConnectedApps(env: Env, userId: string): Promise<number> {
  // A studio whose BASE_URL cannot be an OAuth issuer never issued a grant: nothing to revoke.
  if (issuerProblem(env)) return 0;
  const apps = await listConnectedApps(env, userId);
  await Promise.all(apps.map((app) => revokeGrantForGood(env, userId, app.id, "personal token rotated")));
  return apps.length;
}

/**
 * Revokes a grant for good: the revoked-grant record first (from then on no token of it is accepted, including one
 * a racing refresh is writing now), then the library's deletion of the grant and every token of it.
 */
export async function revokeGrantForGood(env: Env, userId: string, grantId: string, reason: string): Promise<void> {
  await recordRevokedGrant(env, userId, grantId, reason);
  await authorizationServer(env).getOAuthApi(env).revokeGrant(grantId, userId);
}
