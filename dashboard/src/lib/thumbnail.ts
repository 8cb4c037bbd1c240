// Picks a project's thumbnail: the latest render's poster or its newest snapshot, whichever is newer. Pure.
// A render's poster is its posterUrl (an image the render node made); a render without one (from before posters, or
// whose poster failed) shows the video itself, paused at a media-fragment time (`#t=`), so the browser decodes that
// one frame from the file; a GIF render is shown as an image.
import type { FileEntry, RenderFile } from "./types.ts";

export type Thumbnail = { kind: "snapshot"; path: string } | { kind: "render"; filename: string; gif: boolean; poster: string | null } | null;

const time = (iso: string) => Date.parse(iso);

/** The snapshot frame to show: the first frame (not the contact sheet), else the sheet; with its write time. */
function newestSnapshot(files: FileEntry[]): { path: string; at: number } | null {
  const pngs = files
    .filter((f) => f.path.startsWith("snapshots/") && f.path.toLowerCase().endsWith(".png"))
    .sort((a, b) => a.path.localeCompare(b.path, undefined, { numeric: true }));
  const frames = pngs.filter((f) => !/contact|sheet/i.test(f.path));
  const pick = frames[0] ?? pngs[0];
  if (!pick) return null;
  return { path: pick.path, at: Math.max(...pngs.map((f) => time(f.mtime))) };
}

/** The newest finished render of `project` in a GET /api/renders list (newest first or not). */
export function latestRenderOf(renders: RenderFile[], project: string): RenderFile | null {
  let best: RenderFile | null = null;
  for (const r of renders) if (r.project === project && (!best || time(r.mtime) > time(best.mtime))) best = r;
  return best;
}

export function pickThumbnail(files: FileEntry[], render: RenderFile | null = null): Thumbnail {
  const snapshot = newestSnapshot(files);
  // A png-sequence (.zip) has nothing a page can show: the snapshot stands in.
  if (render && !render.filename.toLowerCase().endsWith(".zip") && (!snapshot || time(render.mtime) >= snapshot.at)) {
    return { kind: "render", filename: render.filename, gif: render.filename.toLowerCase().endsWith(".gif"), poster: render.posterUrl };
  }
  return snapshot ? { kind: "snapshot", path: snapshot.path } : null;
}

/** The poster time for a render: the middle of the composition, where the starter's titles are on screen. */
export function posterTime(duration: number | null): number {
  return duration !== null && Number.isFinite(duration) && duration > 0 ? Math.round((duration / 2) * 10) / 10 : 0;
}
