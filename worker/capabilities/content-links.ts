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
import { capabilityKeys } from "./capability-key.ts";
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

async function sign(env: Env, binding: string, kind: CapabilityKind, owner: { userId: string; id: string }, seconds: number, now: number) {
  const expiresAt = Math.floor(now / 1000) + seconds;
  const capability = await signCapability(await capabilityKeys(tokenSecret(env)), { kind, userId: owner.userId, id: owner.id, expiresAt }, binding);
  return { base: capabilityBase(env, capability), expiresAt: new Date(expiresAt * 1000).toISOString() };
}

async function bindingOf(db: Db, userId: string): Promise<string> {
  const binding = await ownerBinding(db, userId);
  if (binding === null) throw new ApiError(500, "user has no token");
  return binding;
}

/** A link to a project's play page, signed with a binding the caller already read (lists sign many at once). */
export async function signProjectLink(env: Env, binding: string, project: { userId: string; id: string }, seconds: number, now = Date.now()): Promise<ContentLink> {
  const { base, expiresAt } = await sign(env, binding, "project", project, seconds, now);
  return { url: base, expiresAt };
}

/** A link to a project's play page; append a project-relative path to it for a file. */
export async function projectLink(env: Env, db: Db, project: { userId: string; id: string }, seconds: number, now = Date.now()): Promise<ContentLink> {
  return signProjectLink(env, await bindingOf(db, project.userId), project, seconds, now);
}

/** A link to one rendered file. */
export async function renderLink(env: Env, db: Db, render: { userId: string; id: string; filename: string }, seconds: number, now = Date.now()): Promise<ContentLink> {
  const { base, expiresAt } = await sign(env, await bindingOf(db, render.userId), "render", render, seconds, now);
  return { url: base + encodePath(render.filename), expiresAt };
}
