// Deleting a user's objects from R2: a whole project, one directory, one file, or a rendered video. Each goes
// through the user's storage ledger (storage-usage.ts), which deletes the keys and takes them off the count in one
// step, so no caller can forget to and concurrent deletes cannot give the same bytes back twice.
import type { Env } from "../../env.ts";
import { listObjects } from "../../storage/list-objects.ts";
import { removeStored, type Stored } from "./storage-usage.ts";
import { fileKey, manifestKey, posterKey, projectPrefix, renderKey, type ProjectRef } from "../../storage/keys.ts";

/** Deletes every object of the project; returns what was removed. */
export async function deleteFolder(env: Env, project: ProjectRef): Promise<Stored> {
  const objects = await listObjects(env.FILES, projectPrefix(project));
  return removeStored(env, project.userId, objects.map((o) => o.key));
}

/** Deletes a file or a directory tree; returns what it was, or null when nothing is there. */
export async function deletePath(env: Env, project: ProjectRef, path: string): Promise<"file" | "directory" | null> {
  const key = fileKey(project, path);
  const [file, below] = await Promise.all([env.FILES.head(key), listObjects(env.FILES, key + "/")]);
  if (below.length === 0 && !file) return null;
  await removeStored(env, project.userId, [...below.map((o) => o.key), ...(file ? [key] : [])]);
  return below.length > 0 ? "directory" : "file";
}

/** Deletes a rendered video, its poster and its carry manifest (nothing for any already gone). */
export async function deleteRenderFile(env: Env, userId: string, filename: string): Promise<void> {
  await removeStored(env, userId, [renderKey(userId, filename), posterKey(userId, filename), manifestKey(userId, filename)]);
}
