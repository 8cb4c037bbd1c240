// What changed between two listings of a project's files (by size and mtime). Pure; a preview reloads on it.
import type { RemoteFile } from "../protocol/node-protocol-client.ts";

/** Snapshots land in the project but are no part of the composition: writing them must not reload a preview. */
const IGNORED = /^snapshots\//;

export function diffFileListings(before: readonly RemoteFile[], after: readonly RemoteFile[]): { changed: RemoteFile[]; removed: string[] } {
  const old = new Map(before.map((f) => [f.path, f]));
  const changed = after.filter((f) => {
    if (IGNORED.test(f.path)) return false;
    const was = old.get(f.path);
    return !was || was.size !== f.size || was.mtime !== f.mtime;
  });
  const now = new Set(after.map((f) => f.path));
  const removed = before.filter((f) => !now.has(f.path) && !IGNORED.test(f.path)).map((f) => f.path);
  return { changed, removed };
}
