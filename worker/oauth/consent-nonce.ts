// The consent form's nonce: HMAC(TOKEN_SECRET, session hash + handle). The library binds the form's handle to the
// browser (a __Host- cookie); this binds it to the signed-in session too, so a form opened in one session cannot
// be approved in another (a shared browser, a sign-out and sign-in between), and a post without it is refused.
import { base64url } from "../auth/tokens.ts";

const encoder = new TextEncoder();

async function mac(secret: string, message: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

export async function consentNonce(secret: string, sessionHash: string, handle: string): Promise<string> {
  return base64url(await mac(secret, `oauth-consent\u0000${sessionHash}\u0000${handle}`));
}

/** Whether `nonce` is the one this session was given for `handle` (compared in constant time). */
export async function nonceMatches(secret: string, sessionHash: string, handle: string, nonce: string): Promise<boolean> {
  const expected = encoder.encode(await consentNonce(secret, sessionHash, handle));
  const given = encoder.encode(nonce);
  if (given.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected[i]! ^ given[i]!;
  return diff === 0;
}
