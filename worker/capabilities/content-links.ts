// Issuing capability links: a URL on the content origin that reads one project or one render until it expires.
//   <CONTENT_URL>/c/<capability>/            a project's play page
//   <CONTENT_URL>/c/<capability>/<path>      a file of that project (relative URLs of the page resolve here)
//   <CONTENT_URL>/c/<capability>/<filename>  a render's video
// The capability sits in the path, not the query, so a composition's relative asset URLs carry it by themselves.
import { encodePath } from "../../core/paths/project-path.ts";
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { tokenSecret } from "../http/config.ts";
import { ApiError } from "../http/errors.ts";
import { contentOrigin } from "../http/origins.ts";
import { capabilityKey } from "./capability-key.ts";
import { signCapability, type CapabilityKind } from "./capability-token.ts";
import { ownerBinding } from "./store.ts";

export interface ContentLink {
  url: string;
  /** ISO 8601 UTC. */
  expiresAt: string;
}

/** The URL prefix under which a capability's content is served. */
export function capabilityBase(env: Env, capability: string): string {
  return `${contentOrigin(env)}/c/${capability}/`;
}

async function issue(env: Env, db: Db, kind: CapabilityKind, owner: { userId: string; id: string }, seconds: number, now: number): Promise<{ capability: string; expiresAt: string }> {
  const binding = await ownerBinding(db, owner.userId);
  if (binding === null) throw new ApiError(500, "user has no token");
  const expiresAt = Math.floor(now / 1000) + seconds;
  const capability = await signCapability(await capabilityKey(tokenSecret(env)), { kind, userId: owner.userId, id: owner.id, expiresAt }, binding);
  return { capability, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

/** A link to a project's play page; append a project-relative path to it for a file. */
export async function projectLink(env: Env, db: Db, project: { userId: string; id: string }, seconds: number, now = Date.now()): Promise<ContentLink> {
  const { capability, expiresAt } = await issue(env, db, "project", project, seconds, now);
  return { url: capabilityBase(env, capability), expiresAt };
}

/** A link to one rendered file. */
export async function renderLink(env: Env, db: Db, render: { userId: string; id: string; filename: string }, seconds: number, now = Date.now()): Promise<ContentLink> {
  const { capability, expiresAt } = await issue(env, db, "render", render, seconds, now);
  return { url: capabilityBase(env, capability) + encodePath(render.filename), expiresAt };
}
