// Where a Google Fonts stylesheet the Worker resolved travels with a job: the node cannot reach Google, so the
// Worker fetches the stylesheet and its font files once (cached in R2) and lists them among the job's files under
// this folder; the node's project server then serves the local copy in place of the link. One naming, two sides.

/** The job-file folder of resolved Google Fonts stylesheets and their font files. */
export const GOOGLE_FONTS_DIR = "__studio/fonts/google";

/** A stylesheet's file name from the hex SHA-256 of its URL (as written in the page, `&amp;` decoded). */
export function googleStylesheetName(sha256Hex: string): string {
  return `${sha256Hex.slice(0, 32)}.css`;
}

/** A font file's name from the hex SHA-256 of its fonts.gstatic.com URL. */
export function googleFontFileName(sha256Hex: string, url: string): string {
  const extension = /\.(woff2|woff|ttf|otf)(?:$|\?)/i.exec(url)?.[1]?.toLowerCase() ?? "woff2";
  return `${sha256Hex.slice(0, 32)}.${extension}`;
}
