// Strict base64 for ?encoding=base64 uploads: standard or URL-safe alphabet, optional padding, whitespace ignored.
// Anything else is rejected instead of being silently decoded into garbage.
import { decodeBase64Text } from "../parse-text.ts";

export function decodeBase64(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return null;
  const unpadded = compact.replace(/=+$/, "");
  if (unpadded.length % 4 === 1) return null;
  const padded = unpadded + "=".repeat((4 - (unpadded.length % 4)) % 4);
  const binary = decodeBase64Text(padded);
  if (!binary.ok) return null; // null is this reader's "not base64" (the caller's 400)
  const bytes = new Uint8Array(binary.value.length);
  for (let i = 0; i < binary.value.length; i++) bytes[i] = binary.value.charCodeAt(i);
  return bytes;
}
