// Picks a project's thumbnail from its file list: the first snapshot frame, else the contact sheet. Pure.
import type { FileEntry } from "./types.ts";

export function pickThumbnail(files: FileEntry[]): string | null {
  const pngs = files
    .map((f) => f.path)
    .filter((p) => p.startsWith("snapshots/") && p.toLowerCase().endsWith(".png"))
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const frames = pngs.filter((p) => !/contact|sheet/i.test(p));
  return frames[0] ?? pngs[0] ?? null;
}
