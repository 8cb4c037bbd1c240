// Project-relative file paths, checked on the raw (still percent-encoded) text of the URL, so that no spelling of
// "..", a backslash, an absolute path or a NUL byte can reach storage, and no control, bidirectional or invisible
// character can make a name look like another (see invisible-characters.ts).
import { invisibleCharacterProblem } from "./invisible-characters.ts";
import { percentLayers } from "./percent-layers.ts";
import { decodeComponent } from "../parse-text.ts";

export type PathCheck = { ok: true; path: string; isDirectory: boolean } | { ok: false; error: string };

/** Hidden caches that file listings leave out. */
export const HIDDEN_DIRECTORIES = [".thumbnails", ".waveform-cache"] as const;

/**
 * The folder the studio writes a project's snapshots into (POST …/snapshot, emptied on every call): its output, not
 * the composition's input. Lint, the preview's change watch and the dashboard's file list leave it out; a render's
 * job is not given it, so taking a snapshot never changes what a render can load, nor its render cache key.
 */
export const SNAPSHOTS_DIR = "snapshots";

/** Whether a project path is in (or is) the snapshots folder. */
export function isSnapshotPath(path: string): boolean {
  return path === SNAPSHOTS_DIR || path.startsWith(`${SNAPSHOTS_DIR}/`);
}

export const MAX_PATH_LENGTH = 512;

export function checkProjectPath(raw: string): PathCheck {
  if (raw.length === 0) return { ok: false, error: "path is empty" };
  const read = decodeComponent(raw);
  if (!read.ok) return { ok: false, error: `path is not valid percent-encoding: ${raw}` };
  const decoded = read.value;
  // Every layer of encoding: "%252e%252e" must not survive as ".." one decoding further down.
  for (const candidate of percentLayers(raw)) {
    if (candidate.includes("..")) return { ok: false, error: "path may not contain '..'" };
    if (candidate.includes("\\")) return { ok: false, error: "path may not contain backslashes" };
    if (candidate.includes("\0")) return { ok: false, error: "path may not contain NUL bytes" };
  }
  if (decoded.startsWith("/") || /^[a-zA-Z]:/.test(decoded)) {
    return { ok: false, error: "path must be project-relative, not absolute" };
  }
  if (decoded.length > MAX_PATH_LENGTH) return { ok: false, error: `path is longer than ${MAX_PATH_LENGTH} characters` };
  const invisible = invisibleCharacterProblem(decoded);
  if (invisible) return { ok: false, error: `path ${invisible}` };
  const isDirectory = decoded.endsWith("/");
  const trimmed = isDirectory ? decoded.slice(0, -1) : decoded;
  const segments = trimmed.split("/");
  if (segments.some((s) => s === "" || s === ".")) {
    return { ok: false, error: "path may not contain empty or '.' segments" };
  }
  return { ok: true, path: trimmed, isDirectory };
}

export function isHiddenPath(path: string): boolean {
  return path.split("/").some((segment) => (HIDDEN_DIRECTORIES as readonly string[]).includes(segment));
}

/** Percent-encodes each segment so a path can be put back into a URL. */
export function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}
