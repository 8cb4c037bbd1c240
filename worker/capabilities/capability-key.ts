// The key capabilities are signed with: derived from TOKEN_SECRET with HKDF-SHA256 under its own label, so it is
// never the key personal tokens are derived with (HMAC keyed by TOKEN_SECRET itself) and a MAC made for one
// purpose can never be replayed as the other.
const encoder = new TextEncoder();
const SALT = encoder.encode("studio");
const INFO = encoder.encode("studio/capability-mac/v1");

const cache = new Map<string, Promise<CryptoKey>>();

export function capabilityKey(secret: string): Promise<CryptoKey> {
  let key = cache.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: SALT, info: INFO },
          base,
          { name: "HMAC", hash: "SHA-256", length: 256 },
          false,
          ["sign", "verify"],
        ),
      );
    cache.set(secret, key);
  }
  return key;
}
