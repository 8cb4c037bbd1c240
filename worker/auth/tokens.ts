// Credentials: random secrets shown once and stored only as SHA-256 hashes. The prefix says what a secret is, so
// a leaked string is recognisable and the middleware can route it without a database lookup.
export const TOKEN_PREFIX = { user: "stu_", bot: "stb_", node: "stn_" } as const;
export type TokenKind = keyof typeof TOKEN_PREFIX;

const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 32 random bytes, base64url, with an optional prefix. */
export function randomSecret(prefix = ""): string {
  return prefix + base64url(crypto.getRandomValues(new Uint8Array(32)));
}

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A user's personal token is HMAC(TOKEN_SECRET, "<userId>.<nonce>"). Only its hash and the nonce are stored, so
 * the database alone never reveals a token, yet the dashboard and GET /api/me can show it again. Rotation
 * replaces the nonce, which changes the token and its hash at once.
 */
export async function deriveUserToken(secret: string, userId: string, nonce: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${userId}.${nonce}`));
  return TOKEN_PREFIX.user + base64url(new Uint8Array(mac));
}

export function kindOfToken(token: string): TokenKind | null {
  for (const [kind, prefix] of Object.entries(TOKEN_PREFIX)) {
    if (token.startsWith(prefix)) return kind as TokenKind;
  }
  return null;
}
