// Turning the capability of a content URL back into what it grants, or a 403 that says why not. Every failure
// to verify (malformed, forged, tampered, another secret, owner's token rotated, row deleted) is one message, so a
// forger learns nothing about which check failed; only a genuine link that ran out says "expired".
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { tokenSecret } from "../http/config.ts";
import { forbidden } from "../http/errors.ts";
import { capabilityKeys } from "./capability-key.ts";
import { openCapability, verifyCapability } from "./capability-token.ts";
import { findTarget, type ProjectTarget, type RenderTarget } from "./store.ts";

export const INVALID_LINK = "invalid link: it was altered, revoked (its owner rotated their token) or what it pointed to was deleted";
export const EXPIRED_LINK = "this link has expired: ask its owner for a new one, or open the project on the dashboard again";

export async function resolveCapability(env: Env, db: Db, capability: string, now = Date.now()): Promise<ProjectTarget | RenderTarget> {
  const keys = await capabilityKeys(tokenSecret(env));
  // Only a capability this studio sealed reaches D1: a forged or altered one fails to decrypt first.
  const claims = await openCapability(keys, capability);
  const target = claims ? await findTarget(db, claims.kind, claims.id) : null;
  // Verify even when nothing was found (against a binding that cannot match) so both paths cost the same.
  const check = await verifyCapability(keys, capability, target?.binding ?? "\0", Math.floor(now / 1000));
  if (!check.ok && check.problem === "expired" && target) throw forbidden(EXPIRED_LINK, "link_expired");
  if (!check.ok || !target || target.userId !== check.claims.userId) throw forbidden(INVALID_LINK, "link_invalid");
  return target;
}
