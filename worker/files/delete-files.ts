// Deleting from R2: a whole project, one directory, or one file.
import { listObjects } from "./list-files.ts";
import { fileKey, projectPrefix, type ProjectRef } from "./keys.ts";

async function deleteKeys(bucket: R2Bucket, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
}

export async function deleteFolder(bucket: R2Bucket, project: ProjectRef): Promise<void> {
  await deleteKeys(bucket, (await listObjects(bucket, projectPrefix(project))).map((o) => o.key));
}

/** Deletes a file or a directory tree; returns what it was, or null when nothing is there. */
export async function deletePath(bucket: R2Bucket, project: ProjectRef, path: string): Promise<"file" | "directory" | null> {
  const key = fileKey(project, path);
  const [file, below] = await Promise.all([bucket.head(key), listObjects(bucket, key + "/")]);
  if (below.length > 0) {
    await deleteKeys(bucket, [...below.map((o) => o.key), ...(file ? [key] : [])]);
    return "directory";
  }
  if (file) {
    await bucket.delete(key);
    return "file";
  }
  return null;
}
