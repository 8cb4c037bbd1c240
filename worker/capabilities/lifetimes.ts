// How long capability links live. Short for links the dashboard and /play make on every view (a fresh one is a
// click away); longer, and capped, for share links a person hands to someone else.

/** Links in GET /api/projects/:slug (`contentUrl`) and the /play/<slug> redirect: one hour. */
export const VIEW_LINK_SECONDS = 60 * 60;

/** POST /api/projects/:slug/share without `expiresIn`: one day. */
export const SHARE_LINK_DEFAULT_SECONDS = 24 * 60 * 60;

/** Bounds of `expiresIn` for share links: one minute to seven days. */
export const SHARE_LINK_MIN_SECONDS = 60;
export const SHARE_LINK_MAX_SECONDS = 7 * 24 * 60 * 60;
