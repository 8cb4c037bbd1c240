// The identity object of GET /api/me and dev login: who you are, your token, and a curl line that works.
import type { Context } from "hono";
import { openDb } from "../db/client.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { tokenSecret } from "../http/config.ts";
import type { AppEnv, User } from "../http/context.ts";
import { storageQuota, storageUsed } from "../files/storage-usage.ts";
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
  const baseUrl = baseUrlOf(c);
  return {
    user: publicUser(user),
    token,
    baseUrl,
    curl: curlExample(baseUrl, token),
    docsUrl: `${baseUrl}/api/docs`,
    /** Bytes stored (project files and renders) and the quota (files/storage-usage.ts). */
    storage: { used: await storageUsed(c.env, user.id), limit: storageQuota(c.env) },
  };
}
