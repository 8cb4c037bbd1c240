// Deleting a user's objects from R2: a whole project, one directory, one file, or a rendered video. Each gives
// what it removed back to the owner's storage count (storage-usage.ts), so no caller can forget to.
import type { Env } from "../env.ts";
import { listObjects } from "./list-files.ts";
import { recordStorage, type Stored } from "./storage-usage.ts";
import { fileKey, projectPrefix, renderKey, type ProjectRef } from "./keys.ts";

async function deleteKeys(bucket: R2Bucket, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
}

/** Deletes the objects and takes them off the user's count; returns what was removed. */
async function deleteObjects(env: Env, userId: string, objects: { key: string; size: number }[]): Promise<Stored> {
  await deleteKeys(env.FILES, objects.map((o) => o.key));
  const gone = { bytes: objects.reduce((sum, o) => sum + o.size, 0), objects: objects.length };
  await recordStorage(env, userId, { bytes: -gone.bytes, objects: -gone.objects });
  return gone;
}

/** Deletes every object of the project; returns what was removed. */
export async function deleteFolder(env: Env, project: ProjectRef): Promise<Stored> {
  return deleteObjects(env, project.userId, await listObjects(env.FILES, projectPrefix(project)));
}

/** Deletes a file or a directory tree; returns what it was, or null when nothing is there. */
export async function deletePath(env: Env, project: ProjectRef, path: string): Promise<"file" | "directory" | null> {
  const key = fileKey(project, path);
  const [file, below] = await Promise.all([env.FILES.head(key), listObjects(env.FILES, key + "/")]);
  if (below.length === 0 && !file) return null;
  await deleteObjects(env, project.userId, file ? [...below, file] : below);
  return below.length > 0 ? "directory" : "file";
}

/** Deletes a rendered video (nothing when it is already gone). */
export async function deleteRenderFile(env: Env, userId: string, filename: string): Promise<void> {
  const file = await env.FILES.head(renderKey(userId, filename));
  if (file) await deleteObjects(env, userId, [file]);
}
