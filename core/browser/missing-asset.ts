// One wording for a project file the page asked for that is not there (an <img>, <video>, <audio>, CSS url() or
// @font-face src): the render log's finding line, the snapshot log and check's missing-asset finding all read it.
// Pure.

export interface MissingAsset {
  /** The project path that was requested, e.g. `assets/logo.png`. */
  path: string;
  /** The project file whose markup or CSS asked for it (from the request's referrer), when known. */
  referrer: string | null;
  /** The HTTP status the project server answered (404: no such file). */
  status: number;
}

const PREFIX = "finding: missing asset: ";
const LINE = /^finding: missing asset: (.+?)(?: \(referenced by (.+?)\))? (?:is not in the project|answered HTTP (\d{3}))$/;

/** `finding: missing asset: assets/logo.png (referenced by index.html) is not in the project`. */
export function missingAssetLine({ path, referrer, status }: MissingAsset): string {
  return `${PREFIX}${path}${referrer ? ` (referenced by ${referrer})` : ""} ${status === 404 ? "is not in the project" : `answered HTTP ${status}`}`;
}

/** The missing asset a log line reports, or null for any other line. */
export function parseMissingAssetLine(line: string): MissingAsset | null {
  const match = LINE.exec(line);
  if (!match) return null;
  return { path: match[1]!, referrer: match[2] ?? null, status: match[3] ? Number(match[3]) : 404 };
}

/** The project path of a URL on the project server's origin, or null for another origin or the runtime's own files. */
export function projectPathOf(origin: string, url: string | undefined): string | null {
  if (!url || !url.startsWith(`${origin}/`)) return null;
  const path = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, "");
  return path === "" || path.startsWith("__studio/") ? null : path;
}

/** The finding for one response of the project server, or null when it is not a failed project file. */
export function missingAssetFromResponse(origin: string, url: string, status: number, referer: string | undefined): MissingAsset | null {
  if (status < 400) return null;
  const path = projectPathOf(origin, url);
  return path === null ? null : { path, referrer: projectPathOf(origin, referer), status };
}
