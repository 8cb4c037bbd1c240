// The identity object of GET /api/me and dev login: who you are, your token, and a curl line that works.
import type { Context } from "hono";
import { openDb } from "../db/client.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { tokenSecret } from "../http/config.ts";
import type { AppEnv, User } from "../http/context.ts";
import { storageQuota, storageUsed } from "../projects/files/storage-usage.ts";
import type { Env } from "../env.ts";
import { personalToken } from "./users.ts";

export function publicUser(user: User) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    avatarUrl: user.avatarUrl,
    provider: user.provider,
    createdAt: new Date(user.createdAt).toISOString(),
  };
}

export function curlExample(baseUrl: string, token: string): string {
  return `curl -H "Authorization: Bearer ${token}" ${baseUrl}/api/projects`;
}

export async function identityOf(c: Context<AppEnv>, user: User) {
  const token = await personalToken(openDb(c.env.DB), tokenSecret(c.env), user.id);
  const { baseUrl, docsUrl, storage } = await publicIdentityOf(c, user);
  return { user: publicUser(user), token, baseUrl, curl: curlExample(baseUrl, token), docsUrl, storage };
}

/** The identity without the personal token (and so without the curl line): what an OAuth-connected app sees. */
export async function publicIdentityOf(c: Context<AppEnv>, user: User) {
  const baseUrl = baseUrlOf(c);
  return { user: publicUser(user), baseUrl, docsUrl: `${baseUrl}/api/docs`, storage: await storageOf(c.env, user.id) };
}

/** What the user stores (project files and renders) against the quota (projects/files/storage-usage.ts). */
async function storageOf(env: Env, userId: string) {
  const used = await storageUsed(env, userId);
  const limit = storageQuota(env);
  return { used: used.bytes, limit: limit.bytes, files: used.objects, fileLimit: limit.objects };
}
