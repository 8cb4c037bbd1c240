// The anonymous visitor cookie: "<random id>.<signature>", the signature an HMAC of the id under a key derived
// from TOKEN_SECRET. A forged or altered cookie fails verification and counts as no cookie at all. The cookie holds
// nothing but the random id.
import { base64url } from "../auth/tokens.ts";

const encoder = new TextEncoder();
const ID = /^[A-Za-z0-9-]{16,64}$/;
/** A label with no ".", so the derived key can never equal a personal token's HMAC input ("<userId>.<nonce>"). */
const KEY_LABEL = "studio visitor cookie v1";

async function cookieKey(secret: string): Promise<CryptoKey> {
  const root = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const derived = await crypto.subtle.sign("HMAC", root, encoder.encode(KEY_LABEL));
  return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function fromBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

export async function signVisitorId(secret: string, id: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await cookieKey(secret), encoder.encode(id));
  return `${id}.${base64url(new Uint8Array(mac))}`;
}

/** The id of a genuine cookie, or null. (crypto.subtle.verify compares in constant time.) */
export async function verifiedVisitorId(secret: string, cookie: string | undefined): Promise<string | null> {
  const [id, signature, ...rest] = (cookie ?? "").split(".");
  if (!id || !signature || rest.length > 0 || !ID.test(id)) return null;
  const mac = fromBase64url(signature);
  if (!mac) return null;
  const ok = await crypto.subtle.verify("HMAC", await cookieKey(secret), mac as Uint8Array<ArrayBuffer>, encoder.encode(id));
  return ok ? id : null;
}

/** A cookie from before signing: a bare id. It is honoured only for a visitor already on record. */
export function legacyVisitorId(cookie: string | undefined): string | null {
  return cookie && ID.test(cookie) ? cookie : null;
}
