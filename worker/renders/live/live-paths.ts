// Where a running render's live playlist is (live-routes.ts serves it): its state's `liveUrl`.

/** A live playlist's path, as a running render's state gives it (`liveUrl`). */
export const livePlaylistPath = (renderId: string) => `/api/renders/${renderId}/live.m3u8`;
