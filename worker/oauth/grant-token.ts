// What an access token of the OAuth library looks like (userId:grantId:secret), told apart from the studio's own
// prefixed credentials (stu_, stb_, stn_) without loading the library, so a malformed token costs nothing.
const GRANT_TOKEN = /^([A-Za-z0-9_-]{1,100}):([A-Za-z0-9_-]{1,100}):([A-Za-z0-9_-]{16,200})$/;

export function isGrantToken(token: string): boolean {
  return GRANT_TOKEN.test(token);
}

/** The grant id an access token names (its second part), or null for anything else. */
export function grantIdOf(token: string): string | null {
  return GRANT_TOKEN.exec(token)?.[2] ?? null;
}
