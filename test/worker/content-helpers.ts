// Shared by the content-origin and capability-link tests: the content host, a manual-redirect GET, and ways to
// read, look up and forge capability links.
import { env, SELF } from "cloudflare:test";
import { api, json } from "./helpers.ts";

export const CONTENT = "http://content.studio.test";

export const get = (url: string, headers: Record<string, string> = {}) => SELF.fetch(url, { headers, redirect: "manual" });

/** The capability segment of a content link. */
export const capabilityOf = (url: string) => new URL(url).pathname.split("/")[2]!;

export async function detail(token: string, slug: string) {
  return json<{ contentUrl: string; contentExpiresAt: string; project: { name: string } }>(await api(token, "GET", `/api/projects/${slug}`));
}

export async function projectId(userId: string, slug: string): Promise<string> {
  const row = await env.DB.prepare("SELECT id FROM projects WHERE user_id = ? AND slug = ?").bind(userId, slug).first<{ id: string }>();
  return row!.id;
}

/** Re-encodes a capability's payload with one field changed, keeping the original MAC (what a forger can do). */
export function tamper(capability: string, patch: Record<string, unknown>): string {
  const [payload, mac] = capability.split(".") as [string, string];
  const body = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
  const text = btoa(JSON.stringify({ ...body, ...patch })).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${text}.${mac}`;
}
