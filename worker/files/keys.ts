// R2 layout. Every key starts with the owner's user id, so one user's objects can never be addressed by another.
//   p/<userId>/<slug>/<path>      project files ("<path>/" with no body marks an empty directory)
//   r/<userId>/<filename>         rendered videos
//   fonts/google/<hash>.css       the one shared key space: public Google Fonts stylesheets and files/<hash>.woff2,
//                                 cached for render nodes and /play (worker/fonts/google-fonts-cache.ts)

/** A project as seen by its owner: every file operation takes one, so a cross-tenant key cannot be built. */
export interface ProjectRef {
  userId: string;
  slug: string;
}

/** Every project of one user (their storage count, files/storage-usage.ts). */
export const userProjectsPrefix = (userId: string) => `p/${userId}/`;
export const projectPrefix = (p: ProjectRef) => userProjectsPrefix(p.userId) + `${p.slug}/`;
export const fileKey = (p: ProjectRef, path: string) => projectPrefix(p) + path;
export const renderPrefix = (userId: string) => `r/${userId}/`;
export const renderKey = (userId: string, filename: string) => renderPrefix(userId) + filename;
