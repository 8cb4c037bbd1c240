// A capability: a signed, expiring, read-only grant to one project or one render, carried in a content-origin
// URL instead of a personal token. Pure: the key and the owner's binding come from the caller, time is passed in.
//
//   <payload>.<mac>   both base64url; payload = JSON { v, k, u, id, e, a }
//   mac = HMAC-SHA256(capability key, "<payload>.<binding>")
//
// The binding is the owner's current token nonce (never in the URL): rotating the personal token changes it, so
// every link the owner handed out stops working at once, without a table of issued links.
import { base64url } from "../auth/tokens.ts";

export type CapabilityKind = "project" | "render";

export interface CapabilityClaims {
  kind: CapabilityKind;
  /** The owner's user id. */
  userId: string;
  /** The project's or render's row id: a project deleted and created again under the same slug is not covered. */
  id: string;
  /** Epoch seconds after which the capability grants nothing. */
  expiresAt: number;
}

/** Only read access exists; the field is signed so that a future write grant can never be confused with it. */
const ACCESS = "read";
const VERSION = 1;
const KIND_CODES: Record<CapabilityKind, string> = { project: "p", render: "r" };
const encoder = new TextEncoder();

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

function payloadOf(claims: CapabilityClaims): string {
  const body = { v: VERSION, k: KIND_CODES[claims.kind], u: claims.userId, id: claims.id, e: claims.expiresAt, a: ACCESS };
  return base64url(encoder.encode(JSON.stringify(body)));
}

export async function signCapability(key: CryptoKey, claims: CapabilityClaims, binding: string): Promise<string> {
  const payload = payloadOf(claims);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${payload}.${binding}`));
  return `${payload}.${base64url(new Uint8Array(mac))}`;
}

/**
 * The claims a capability *says* it carries, before any check: enough to look up the owner's binding. Null when it
 * is not even well formed. Never act on these before verifyCapability.
 */
export function readCapability(token: string): CapabilityClaims | null {
  if (token.length > 1024) return null;
  const [payload, mac, extra] = token.split(".");
  if (!payload || !mac || extra !== undefined) return null;
  const bytes = fromBase64url(payload);
  if (!bytes) return null;
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  if (!body || typeof body !== "object") return null;
  const { v, k, u, id, e, a } = body as Record<string, unknown>;
  const kind = (Object.keys(KIND_CODES) as CapabilityKind[]).find((name) => KIND_CODES[name] === k);
  if (v !== VERSION || a !== ACCESS || !kind) return null;
  if (typeof u !== "string" || !u || typeof id !== "string" || !id) return null;
  if (typeof e !== "number" || !Number.isSafeInteger(e)) return null;
  return { kind, userId: u, id, expiresAt: e };
}

export type CapabilityCheck = { ok: true; claims: CapabilityClaims } | { ok: false; problem: "invalid" | "expired" };

/** Verifies the MAC in constant time (crypto.subtle.verify), then the expiry. */
export async function verifyCapability(key: CryptoKey, token: string, binding: string, nowSeconds: number): Promise<CapabilityCheck> {
  const claims = readCapability(token);
  if (!claims) return { ok: false, problem: "invalid" };
  const [payload, mac] = token.split(".") as [string, string];
  const signature = fromBase64url(mac);
  if (!signature) return { ok: false, problem: "invalid" };
  const valid = await crypto.subtle.verify("HMAC", key, signature, encoder.encode(`${payload}.${binding}`));
  if (!valid) return { ok: false, problem: "invalid" };
  if (claims.expiresAt <= nowSeconds) return { ok: false, problem: "expired" };
  return { ok: true, claims };
}
