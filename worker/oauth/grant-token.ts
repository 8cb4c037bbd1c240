// What the OAuth library's tokens look like (userId:grantId:secret: access tokens, refresh tokens and codes alike),
// told apart from the studio's own prefixed credentials (stu_, stb_, stn_) without loading the library, so a
// malformed token costs nothing.
const GRANT_TOKEN = /^([A-Za-z0-9_-]{1,100}):([A-Za-z0-9_-]{1,100}):([A-Za-z0-9_-]{16,200})$/;

export function isGrantToken(token: string): boolean {
  return GRANT_TOKEN.test(token);
}

/** The grant id an access token names (its second part), or null for anything else. */
export function grantIdOf(token: string): string | null {
  return GRANT_TOKEN.exec(token)?.[2] ?? null;
}

/** The person and grant a token, refresh token or code names, or null when it is not shaped like one. */
export function grantPartsOf(token: string): { userId: string; grantId: string } | null {
  const match = GRANT_TOKEN.exec(token);
  return match ? { userId: match[1]!, grantId: match[2]! } : null;
}
