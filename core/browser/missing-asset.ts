// One finding for a project file the page asked for that is not there (an <img>, <video>, <audio>, CSS url() or
// @font-face src): the render log, the snapshot log and check's missing-asset finding all show it. Pure.
import { makeFinding, type Finding } from "../protocol/finding.ts";

export interface MissingAsset {
  /** The project path that was requested, e.g. `assets/logo.png`. */
  path: string;
  /** The project file whose markup or CSS asked for it (from the request's referrer), when known. */
  referrer: string | null;
  /** The HTTP status the project server answered (404: no such file). */
  status: number;
}

/** The finding for a project file that is not there: `missing asset: assets/logo.png (referenced by index.html) is
 * not in the project`, on the file that asked for it (else the missing path). */
export function missingAssetFinding({ path, referrer, status }: MissingAsset): Finding {
  const message = `missing asset: ${path}${referrer ? ` (referenced by ${referrer})` : ""} ${status === 404 ? "is not in the project" : `answered HTTP ${status}`}`;
  return makeFinding("missing-asset", referrer ?? path, message, {
    asset: path,
    fixHint: `upload ${path}, or fix the path${referrer ? ` in ${referrer}` : ""} (paths are relative to the file that references them)`,
  });
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
