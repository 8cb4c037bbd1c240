// The storage quota: what one user may keep in R2, project files and rendered videos together (MAX_STORAGE_BYTES,
// default 5 GiB). Past it a write is a 413 `storage_quota_exceeded` naming what is used and the limit, and nothing
// is written; deleting files, projects or renders makes room.
//
// The bytes a user stores are kept in D1 (storage_usage) so a write is checked without listing R2. R2 stays the
// truth: a user's row is counted from R2 the first time it is needed, and every write and delete then moves it by
// what changed in R2 (the object's size before and after). A write whose length is not known up front (chunked, or
// base64 text) is admitted while the user is under the quota and counted once stored, so it may pass the quota by
// at most one file. Segment files of a split render are scratch space, deleted when the render ends: not counted.
import { eq, sql } from "drizzle-orm";
import { openDb } from "../db/client.ts";
import { storageUsage } from "../db/schema/storage.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { listObjects } from "./list-files.ts";
import { renderPrefix } from "./keys.ts";

export const DEFAULT_MAX_STORAGE_BYTES = 5 * 1024 ** 3;

export function storageQuota(env: Pick<Env, "MAX_STORAGE_BYTES">): number {
  const n = Number(env.MAX_STORAGE_BYTES);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_MAX_STORAGE_BYTES;
}

const userProjectsPrefix = (userId: string) => `p/${userId}/`;

/** "1.5 GiB", "800 KiB", "12 bytes". */
export function describeBytes(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(1))} ${units[unit]}`;
}

function quotaExceeded(used: number, adding: number | null, limit: number): ApiError {
  const what = adding === null ? "this write" : `${describeBytes(adding)} more`;
  return new ApiError(
    413,
    `storage quota exceeded: you store ${describeBytes(used)} of your ${describeBytes(limit)} (project files and renders); ${what} would not fit. Delete files, projects or renders to make room`,
    { used, limit },
    {},
    "storage_quota_exceeded",
  );
}

/** Counts the user's objects in R2 (project files and renders). */
async function countFromR2(bucket: R2Bucket, userId: string): Promise<number> {
  const [files, renders] = await Promise.all([listObjects(bucket, userProjectsPrefix(userId)), listObjects(bucket, renderPrefix(userId))]);
  return [...files, ...renders].reduce((sum, o) => sum + o.size, 0);
}

/** Bytes the user stores now: their row, or a count from R2 that becomes their row. */
export async function storageUsed(env: Env, userId: string): Promise<number> {
  const db = openDb(env.DB);
  const row = await db.select({ bytes: storageUsage.bytes }).from(storageUsage).where(eq(storageUsage.userId, userId)).get();
  if (row) return row.bytes;
  const bytes = await countFromR2(env.FILES, userId);
  // Two first writes racing both count; the first row stands.
  await db.insert(storageUsage).values({ userId, bytes, countedAt: Date.now() }).onConflictDoNothing();
  return bytes;
}

/** Throws the quota's 413 unless `adding` more bytes fit (null: a length not known yet, admitted while under it). */
export async function admitBytes(env: Env, userId: string, adding: number | null): Promise<void> {
  const used = await storageUsed(env, userId);
  const limit = storageQuota(env);
  const fits = adding === null ? used < limit : adding <= 0 || used + adding <= limit;
  if (!fits) throw quotaExceeded(used, adding, limit);
}

/** Moves the user's count by what changed in R2. A user with no row yet is left alone: their first count sees it. */
export async function recordBytes(env: Env, userId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  await openDb(env.DB)
    .update(storageUsage)
    .set({ bytes: sql`max(0, ${storageUsage.bytes} + ${delta})` })
    .where(eq(storageUsage.userId, userId));
}

/**
 * Writes one object of the user's within their quota: the size it replaces is read first, `length` (null when not
 * known) is admitted, `write` stores it and returns its size, and the count moves by the difference.
 */
export async function storeWithinQuota(env: Env, userId: string, key: string, length: number | null, write: () => Promise<number>): Promise<number> {
  const before = (await env.FILES.head(key))?.size ?? 0;
  await admitBytes(env, userId, length === null ? null : length - before);
  const size = await write();
  await recordBytes(env, userId, size - before);
  return size;
}
