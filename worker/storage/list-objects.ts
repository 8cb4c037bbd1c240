// Recursive listing of a project's files (and directories) from R2, leaving out the hidden cache folders.
import { isHiddenPath } from "../../core/paths/project-path.ts";
import { projectPrefix, type ProjectRef } from "./keys.ts";

export interface FileEntry {
  path: string;
  size: number;
  /** ISO 8601 UTC time of the last write. */
  mtime: string;
  type: "file" | "directory";
}

export async function listObjects(bucket: R2Bucket, prefix: string): Promise<R2Object[]> {
  const objects: R2Object[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, limit: 1000 });
    objects.push(...page.objects);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return objects;
}

export async function listProjectFiles(bucket: R2Bucket, project: ProjectRef): Promise<FileEntry[]> {
  const prefix = projectPrefix(project);
  const objects = await listObjects(bucket, prefix);
  const entries = new Map<string, FileEntry>();
  const addDirectory = (path: string, mtime: string) => {
    const existing = entries.get(path);
    if (!existing) entries.set(path, { path, size: 0, mtime, type: "directory" });
    else if (existing.type === "directory" && existing.mtime < mtime) existing.mtime = mtime;
  };
  for (const object of objects) {
    const relative = object.key.slice(prefix.length);
    if (relative === "" || isHiddenPath(relative)) continue;
    const mtime = object.uploaded.toISOString();
    const isMarker = relative.endsWith("/");
    const path = isMarker ? relative.slice(0, -1) : relative;
    // Every ancestor is a directory, whether or not it has a marker of its own.
    const segments = path.split("/");
    for (let i = 1; i < segments.length; i++) addDirectory(segments.slice(0, i).join("/"), mtime);
    if (isMarker) addDirectory(path, mtime);
    else entries.set(path, { path, size: object.size, mtime, type: "file" });
  }
  return [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
