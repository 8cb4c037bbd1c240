// R2 layout. Every key starts with the owner's user id, so one user's objects can never be addressed by another.
//   p/<userId>/<slug>/<path>      project files ("<path>/" with no body marks an empty directory), including the
//                                 project's cached Google Fonts under __studio/fonts/google/ (worker/content/google-fonts-cache.ts)
//   r/<userId>/<filename>         rendered videos
//   r/<userId>/<filename>.poster.jpg   a rendered video's poster image (worker/renders/poster.ts), deleted with it
//   r/<userId>/<filename>.carry.json   what the next render of the same composition carries from (worker/renders/carry.ts), deleted with it
//   seg/<userId>/<renderId>/<n>   segments of a split render, until it ends (worker/renders/segment-keys.ts)
//   live/<userId>/<renderId>/<n>  a running render's live pieces, until it ends (worker/renders/live/live-pieces.ts)
// The first two are what a user stores against their quota (worker/storage/storage-ledger.ts).

/** A project as seen by its owner: every file operation takes one, so a cross-tenant key cannot be built. */
export interface ProjectRef {
  userId: string;
  slug: string;
}

/** Every project of one user (counted in their storage ledger, worker/storage/storage-ledger.ts). */
export const userProjectsPrefix = (userId: string) => `p/${userId}/`;
export const projectPrefix = (p: ProjectRef) => userProjectsPrefix(p.userId) + `${p.slug}/`;
export const fileKey = (p: ProjectRef, path: string) => projectPrefix(p) + path;
export const renderPrefix = (userId: string) => `r/${userId}/`;
export const renderKey = (userId: string, filename: string) => renderPrefix(userId) + filename;
/** A render's poster: under the render's own name, so no render file name (slug_date_time.ext) can be one. */
export const posterKey = (userId: string, filename: string) => renderKey(userId, filename) + ".poster.jpg";
/** A render's carry manifest (incremental re-render), under the render's own name like its poster. */
export const manifestKey = (userId: string, filename: string) => renderKey(userId, filename) + ".carry.json";
