// Deleting from R2: a whole project, one directory, or one file. Each says how many bytes and objects it removed,
// for the owner's storage count (storage-usage.ts).
import { listObjects } from "./list-files.ts";
import type { Stored } from "./storage-usage.ts";
import { fileKey, projectPrefix, type ProjectRef } from "./keys.ts";

async function deleteKeys(bucket: R2Bucket, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
}

const sizeOf = (objects: { size: number }[]): Stored => ({ bytes: objects.reduce((sum, o) => sum + o.size, 0), objects: objects.length });

/** Deletes every object of the project; returns what was removed. */
export async function deleteFolder(bucket: R2Bucket, project: ProjectRef): Promise<Stored> {
  const objects = await listObjects(bucket, projectPrefix(project));
  await deleteKeys(bucket, objects.map((o) => o.key));
  return sizeOf(objects);
}

/** Deletes a file or a directory tree; returns what it was and what was removed, or null when nothing is there. */
export async function deletePath(bucket: R2Bucket, project: ProjectRef, path: string): Promise<{ kind: "file" | "directory"; gone: Stored } | null> {
  const key = fileKey(project, path);
  const [file, below] = await Promise.all([bucket.head(key), listObjects(bucket, key + "/")]);
  if (below.length > 0) {
    await deleteKeys(bucket, [...below.map((o) => o.key), ...(file ? [key] : [])]);
    return { kind: "directory", gone: sizeOf(file ? [...below, file] : below) };
  }
  if (file) {
    await bucket.delete(key);
    return { kind: "file", gone: sizeOf([file]) };
  }
  return null;
}
