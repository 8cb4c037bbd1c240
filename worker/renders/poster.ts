// A render's poster image: one frame of its video, made by the render node from the output (render-node/src/poster/)
// and stored beside the file under posterKey (storage/keys.ts), counted in its owner's storage like the file. It
// lives and dies with the file: offered exactly while the download is (state.ts), served by the same route family
// with the same rules (GET /renders/<filename>/poster, renders-routes.ts), deleted with it (delete-files.ts).

/** The poster is a JPEG (render-node/src/poster/make-poster.ts). */
export const POSTER_CONTENT_TYPE = "image/jpeg";

/** A poster is one frame; past this it is not one (a 4096x2160 JPEG is a few MB at most). */
export const MAX_POSTER_BYTES = 10 * 1024 * 1024;

/** The poster's link beside the download's (/renders/<filename>). */
export const posterPath = (filename: string) => `/renders/${filename}/poster`;
