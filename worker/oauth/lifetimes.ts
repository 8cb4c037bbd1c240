// How long OAuth credentials live: an access token an hour; the refresh token (and so the grant) 30 days, rotated
// on each use. Beside provider.ts because the revoked-grant record (revoked-grants.ts) must outlive both.
export const ACCESS_TOKEN_SECONDS = 3600;
export const GRANT_SECONDS = 30 * 86_400;
/**
 * A registered client lives 90 days from its last successful token request (the library renews it once half of
 * that is left). A registration never used is cut to OAUTH_UNUSED_CLIENT_SECONDS (unused-clients.ts), at most
 * half of this, so the first code exchange renews it to the full lifetime.
 */
export const CLIENT_SECONDS = 90 * 86_400;
