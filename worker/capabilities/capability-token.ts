// A capability: a sealed, signed, expiring, read-only grant to one project or one render, carried in a
// content-origin URL instead of a personal token. Pure: the keys and the owner's binding come from the caller,
// time is passed in.
//
//   <sealed>.<mac>   both base64url
//   sealed = iv (12 bytes) || AES-256-GCM(seal key, iv, JSON { v, k, u, id, e, a })
//   mac    = HMAC-SHA256(mac key, "<sealed>.<binding>")
//
// The claims are encrypted, not just signed: a link handed to anyone (a share link, a URL in a log or a Referer)
// shows neither its owner's user id nor what it points at, only random-looking bytes. GCM refuses any changed byte
// before a database is asked; the MAC then ties the link to the owner's current token nonce (the binding, never in
// the URL): rotating the personal token changes it, so every link the owner handed out stops working at once,
// without a table of issued links. Version 1 links (readable, signed only) are no longer accepted.
import { base64url } from "../auth/tokens.ts";
import type { CapabilityKeys } from "./capability-key.ts";
import { attempt, attemptAsync, decodeBase64Text, parseJson } from "../../core/parse-text.ts";

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

/** Only read access exists; the field is sealed so that a future write grant can never be confused with it. */
const ACCESS = "read";
const VERSION = 2;
const IV_BYTES = 12;
const KIND_CODES: Record<CapabilityKind, string> = { project: "p", render: "r" };
const encoder = new TextEncoder();

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const binary = decodeBase64Text(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  // A length base64 cannot have: no capability (the caller answers as for any forged link).
  return binary.ok ? Uint8Array.from(binary.value, (ch) => ch.charCodeAt(0)) : null;
}

/** The claims encrypted under a fresh random IV: two links with equal claims share no bytes. */
async function seal(key: CryptoKey, claims: CapabilityClaims): Promise<string> {
  const body = { v: VERSION, k: KIND_CODES[claims.kind], u: claims.userId, id: claims.id, e: claims.expiresAt, a: ACCESS };
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, encoder.encode(JSON.stringify(body))));
  const sealed = new Uint8Array(IV_BYTES + cipher.byteLength);
  sealed.set(iv);
  sealed.set(cipher, IV_BYTES);
  return base64url(sealed);
}

export async function signCapability(keys: CapabilityKeys, claims: CapabilityClaims, binding: string): Promise<string> {
  const sealed = await seal(keys.seal, claims);
  const mac = await crypto.subtle.sign("HMAC", keys.mac, encoder.encode(`${sealed}.${binding}`));
  return `${sealed}.${base64url(new Uint8Array(mac))}`;
}

/** The decrypted claims, or null when the bytes were not sealed with this key or were changed, or say nonsense. */
async function unseal(key: CryptoKey, sealed: string): Promise<CapabilityClaims | null> {
  const bytes = fromBase64url(sealed);
  if (!bytes || bytes.byteLength <= IV_BYTES) return null;
  // Not sealed with this key, changed, not UTF-8 or not JSON: each is a forged or stale link, answered as none.
  const plain = await attemptAsync(() => crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, IV_BYTES) }, key, bytes.slice(IV_BYTES)));
  if (!plain.ok) return null;
  const text = attempt(() => new TextDecoder("utf-8", { fatal: true }).decode(plain.value));
  const json = text.ok ? parseJson(text.value) : null;
  if (!json?.ok) return null;
  const body = json.value;
  if (!body || typeof body !== "object") return null;
  const { v, k, u, id, e, a } = body as Record<string, unknown>;
  const kind = (Object.keys(KIND_CODES) as CapabilityKind[]).find((name) => KIND_CODES[name] === k);
  if (v !== VERSION || a !== ACCESS || !kind) return null;
  if (typeof u !== "string" || !u || typeof id !== "string" || !id) return null;
  if (typeof e !== "number" || !Number.isSafeInteger(e)) return null;
  return { kind, userId: u, id, expiresAt: e };
}

/**
 * The claims a capability carries, decrypted: enough to look up the owner's binding. Null when it is not well
 * formed or not sealed by this studio. Never act on these before verifyCapability (binding and expiry).
 */
export async function openCapability(keys: CapabilityKeys, token: string): Promise<CapabilityClaims | null> {
  if (token.length > 1024) return null;
  const [sealed, mac, extra] = token.split(".");
  if (!sealed || !mac || extra !== undefined) return null;
  return unseal(keys.seal, sealed);
}

export type CapabilityCheck = { ok: true; claims: CapabilityClaims } | { ok: false; problem: "invalid" | "expired" };

/** Opens the claims, verifies the MAC over them and the binding in constant time (crypto.subtle.verify), then the expiry. */
export async function verifyCapability(keys: CapabilityKeys, token: string, binding: string, nowSeconds: number): Promise<CapabilityCheck> {
  const claims = await openCapability(keys, token);
  if (!claims) return { ok: false, problem: "invalid" };
  const [sealed, mac] = token.split(".") as [string, string];
  const signature = fromBase64url(mac);
  if (!signature) return { ok: false, problem: "invalid" };
  const valid = await crypto.subtle.verify("HMAC", keys.mac, signature, encoder.encode(`${sealed}.${binding}`));
  if (!valid) return { ok: false, problem: "invalid" };
  if (claims.expiresAt <= nowSeconds) return { ok: false, problem: "expired" };
  return { ok: true, claims };
}
