// The storage quota: what one user may keep in R2, project files and rendered videos together: at most
// MAX_STORAGE_BYTES bytes (default 5 GiB) in at most MAX_STORED_FILES objects (default 100,000; empty files and
// directories cost no bytes but are objects all the same). Past either a write is a 413 `storage_quota_exceeded`
// naming what is used and the limits, and nothing is written; deleting files, projects or renders makes room.
//
// What a user stores is kept in D1 (storage_usage) so a write is checked without listing R2. R2 stays the truth: a
// user's row is counted from R2 the first time it is needed, and every write and delete then moves it by what
// changed in R2 (the object's size before and after). A write of known length reserves its bytes before it starts
// (one conditional UPDATE, so concurrent writes cannot together pass the quota); a write whose length is not known
// up front (chunked, or base64 text) is admitted while the user is under the quota and counted once stored, so it
// may pass the quota by at most one file. Segment files of a split render are scratch space, deleted when the
// render ends: not counted.
import { and, eq, sql } from "drizzle-orm";
import { describeBytes } from "../../core/units/bytes.ts";
import { openDb } from "../db/client.ts";
import { storageUsage } from "../db/schema/storage.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { listObjects } from "./list-files.ts";
import { renderPrefix, userProjectsPrefix } from "./keys.ts";

export const DEFAULT_MAX_STORAGE_BYTES = 5 * 1024 ** 3;
export const DEFAULT_MAX_STORED_FILES = 100_000;

/** Bytes and objects: what a user stores, a limit, or a change to either. */
export interface Stored {
  bytes: number;
  objects: number;
}

type QuotaEnv = Pick<Env, "MAX_STORAGE_BYTES" | "MAX_STORED_FILES">;

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function storageQuota(env: QuotaEnv): Stored {
  return { bytes: positive(env.MAX_STORAGE_BYTES, DEFAULT_MAX_STORAGE_BYTES), objects: positive(env.MAX_STORED_FILES, DEFAULT_MAX_STORED_FILES) };
}

function quotaExceeded(used: Stored, limit: Stored, adding: { bytes: number | null; objects: number }): ApiError {
  const full = used.objects + adding.objects > limit.objects;
  const what = full
    ? `you store ${used.objects} files of your ${limit.objects} (project files, directories and renders)`
    : `you store ${describeBytes(used.bytes)} of your ${describeBytes(limit.bytes)} (project files and renders)`;
  const more = full ? "another file" : adding.bytes === null ? "this write" : `${describeBytes(adding.bytes)} more`;
  return new ApiError(
    413,
    `storage quota exceeded: ${what}; ${more} would not fit. Delete files, projects or renders to make room`,
    { used: used.bytes, limit: limit.bytes, files: used.objects, fileLimit: limit.objects },
    {},
    "storage_quota_exceeded",
  );
}

/** Counts the user's objects in R2 (project files and renders). */
async function countFromR2(bucket: R2Bucket, userId: string): Promise<Stored> {
  const [files, renders] = await Promise.all([listObjects(bucket, userProjectsPrefix(userId)), listObjects(bucket, renderPrefix(userId))]);
  const all = [...files, ...renders];
  return { bytes: all.reduce((sum, o) => sum + o.size, 0), objects: all.length };
}

/** What the user stores now: their row, or a count from R2 that becomes their row. */
export async function storageUsed(env: Env, userId: string): Promise<Stored> {
  const db = openDb(env.DB);
  const row = await db
    .select({ bytes: storageUsage.bytes, objects: storageUsage.objects })
    .from(storageUsage)
    .where(eq(storageUsage.userId, userId))
    .get();
  if (row) return row;
  const counted = await countFromR2(env.FILES, userId);
  // Two first writes racing both count; the first row stands.
  await db.insert(storageUsage).values({ userId, ...counted, countedAt: Date.now() }).onConflictDoNothing();
  return counted;
}

/**
 * Reserves `adding` in the user's count, or throws the quota's 413 and changes nothing. `bytes`: more bytes (zero or
 * less always fits; null, a length not known yet: admitted while under the byte quota, reserving none), `objects`:
 * more objects. One conditional UPDATE does the check and the reservation, so writes racing each other cannot
 * together pass the quota; the row is read only when that UPDATE changed nothing (no row yet, or no room).
 */
export async function reserveStorage(env: Env, userId: string, adding: { bytes: number | null; objects: number }): Promise<void> {
  const db = openDb(env.DB);
  const limit = storageQuota(env);
  const bytes = adding.bytes ?? 0;
  const bytesFit =
    adding.bytes === null ? sql`${storageUsage.bytes} < ${limit.bytes}` : sql`(${bytes} <= 0 OR ${storageUsage.bytes} + ${bytes} <= ${limit.bytes})`;
  const objectsFit = sql`(${adding.objects} <= 0 OR ${storageUsage.objects} + ${adding.objects} <= ${limit.objects})`;
  const reserve = () =>
    db
      .update(storageUsage)
      .set({ bytes: sql`max(0, ${storageUsage.bytes} + ${bytes})`, objects: sql`max(0, ${storageUsage.objects} + ${adding.objects})` })
      .where(and(eq(storageUsage.userId, userId), bytesFit, objectsFit))
      .returning({ bytes: storageUsage.bytes });
  if ((await reserve()).length === 1) return;
  // Nothing changed: either the user has no row yet (count it from R2, then try once more) or there is no room.
  const used = await storageUsed(env, userId);
  if ((await reserve()).length === 1) return;
  throw quotaExceeded(used, limit, adding);
}

/** Moves the user's count by what changed in R2. A user with no row yet is left alone: their first count sees it. */
export async function recordStorage(env: Env, userId: string, change: Stored): Promise<void> {
  if (change.bytes === 0 && change.objects === 0) return;
  await openDb(env.DB)
    .update(storageUsage)
    .set({ bytes: sql`max(0, ${storageUsage.bytes} + ${change.bytes})`, objects: sql`max(0, ${storageUsage.objects} + ${change.objects})` })
    .where(eq(storageUsage.userId, userId));
}

/** What a delete gave back, as a change to record. */
export const removed = (gone: Stored): Stored => ({ bytes: -gone.bytes, objects: -gone.objects });

/**
 * Writes one object of the user's within their quota: what it replaces is read first, `length` (null when not
 * known) is admitted, `write` stores it and returns its size, and the count moves by the difference.
 */
export async function storeWithinQuota(env: Env, userId: string, key: string, length: number | null, write: () => Promise<number>): Promise<number> {
  const before = (await env.FILES.head(key))?.size ?? null;
  const reserved = { bytes: length === null ? 0 : length - (before ?? 0), objects: before === null ? 1 : 0 };
  await reserveStorage(env, userId, { bytes: length === null ? null : reserved.bytes, objects: reserved.objects });
  let size: number;
  try {
    size = await write();
  } catch (err) {
    // Nothing (new) was stored: give the reservation back.
    await recordStorage(env, userId, removed(reserved));
    throw err;
  }
  // Usually nothing to do; a length that was not known, or an R2 size that differs, is counted now.
  await recordStorage(env, userId, { bytes: size - (before ?? 0) - reserved.bytes, objects: 0 });
  return size;
}
