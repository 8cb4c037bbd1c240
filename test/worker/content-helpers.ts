// Shared by the content-origin and capability-link tests: the content host, a manual-redirect GET, and ways to
// read (with the studio's key), look up and forge capability links.
import { env, SELF } from "cloudflare:test";
import { capabilityKeys } from "../../worker/capabilities/capability-key.ts";
import { openCapability, type CapabilityClaims } from "../../worker/capabilities/capability-token.ts";
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

const fromBase64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (ch) => ch.charCodeAt(0));
const toBase64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The claims a content link carries, opened with the test studio's own key (nobody else can read them). */
export async function claimsOf(capability: string, secret = (env as { TOKEN_SECRET: string }).TOKEN_SECRET): Promise<CapabilityClaims | null> {
  return openCapability(await capabilityKeys(secret), capability);
}

/**
 * A capability with one field of its sealed claims changed, re-sealed with the studio's own encryption key but
 * keeping the original MAC: a forger stronger than any real one (who cannot even decrypt), to show the MAC still
 * covers every field.
 */
export async function tamper(capability: string, patch: Record<string, unknown>, secret = (env as { TOKEN_SECRET: string }).TOKEN_SECRET): Promise<string> {
  const { seal } = await capabilityKeys(secret);
  const [sealed, mac] = capability.split(".") as [string, string];
  const bytes = fromBase64url(sealed);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, seal, bytes.slice(12));
  const body = { ...(JSON.parse(new TextDecoder().decode(plain)) as Record<string, unknown>), ...patch };
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, seal, new TextEncoder().encode(JSON.stringify(body))));
  return `${toBase64url(new Uint8Array([...iv, ...cipher]))}.${mac}`;
}
