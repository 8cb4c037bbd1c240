// Where to go after signing in, when sign-in interrupted something: only an OAuth consent request on this origin
// (/oauth/authorize?…), so a `next` chosen by another site can never send the person anywhere else (an open
// redirect). Shared by the Worker (provider sign-in keeps it in a cookie) and the dashboard (development sign-in).
const MAX_NEXT = 4096;

export function signInNext(value: string | null | undefined): string | null {
  if (!value || value.length > MAX_NEXT) return null;
  if (!value.startsWith("/oauth/authorize?")) return null;
  // No backslash (some parsers read it as a slash) and no control characters (header splitting).
  return /[\\\u0000-\u001f\u007f]/.test(value) ? null : value;
}
