// The keys capabilities are made with, both derived from TOKEN_SECRET with HKDF-SHA256, each under its own label:
// an AES-GCM key that seals the claims (so a link says nothing readable: not whose it is, nor what it points at)
// and an HMAC key that binds the sealed claims to the owner's token nonce. Neither is ever the key personal tokens
// are derived with (HMAC keyed by TOKEN_SECRET itself), so a MAC made for one purpose can never pass as the other.
const encoder = new TextEncoder();
const SALT = encoder.encode("studio");
const MAC_INFO = encoder.encode("studio/capability-mac/v1");
const SEAL_INFO = encoder.encode("studio/capability-seal/v1");

export interface CapabilityKeys {
  /** AES-256-GCM: encrypts and authenticates the claims. */
  seal: CryptoKey;
  /** HMAC-SHA256: signs "<sealed>.<binding>". */
  mac: CryptoKey;
}

const cache = new Map<string, Promise<CapabilityKeys>>();

async function deriveKeys(secret: string): Promise<CapabilityKeys> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  const [seal, mac] = await Promise.all([
    crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: SALT, info: SEAL_INFO }, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]),
    crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: SALT, info: MAC_INFO }, base, { name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign", "verify"]),
  ]);
  return { seal, mac };
}

/** The capability keys of a TOKEN_SECRET, derived once per isolate. */
export function capabilityKeys(secret: string): Promise<CapabilityKeys> {
  let keys = cache.get(secret);
  if (!keys) {
    keys = deriveKeys(secret);
    cache.set(secret, keys);
  }
  return keys;
}
