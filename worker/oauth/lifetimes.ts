// How long OAuth credentials live: an access token an hour; the refresh token (and so the grant) 30 days, rotated
// on each use. Beside provider.ts because the revoked-grant record (revoked-grants.ts) must outlive both.
export const ACCESS_TOKEN_SECONDS = 3600;
export const GRANT_SECONDS = 30 * 86_400;
