// A render answered from the render cache (issue 35, point 1): a done render of the project had the very same inputs
// (render-cache.ts), so the new render is that render's output under its own id and file name, done at once, with no
// job and no node. Its file and poster are copies (each counted in the owner's storage like any render's), so
// deleting either render never breaks the other. Its carry manifest is copied too, so the next edit after a reuse
// carries from it as from any render (../carry.ts picks only a render whose manifest is stored). Its row is inserted done in one batch with the completed renders'
// counter: the request's one round trip to D1 (projection.ts insertReusedRender). It is charged nothing: its
// render-seconds are zero (`actual`), so it reserves and settles no budget. Its log starts with why it was reused,
// then the original's whole log, so the original's findings and warnings are shown on it.
import { RENDER_ENGINE_VERSION } from "../../../core/render/render-engine.ts";
import { FORMAT_CONTENT_TYPES, nextRenderFilename } from "../../../core/render/render-options.ts";
import { openDb } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { ApiError } from "../../http/errors.ts";
import { logEvent } from "../../http/log.ts";
import { removeStored, storeWithinQuota } from "../../projects/files/storage-usage.ts";
import { chunkedToKey } from "../../projects/files/write-file.ts";
import { manifestKey, posterKey, renderKey } from "../../storage/keys.ts";
import { MANIFEST_CONTENT_TYPE } from "../carry.ts";
import { POSTER_CONTENT_TYPE } from "../poster.ts";
import { insertReusedRender, isFilenameTaken } from "../projection.ts";
import { freeRenderFilename } from "../store.ts";
import { NO_POSTER_BEFORE, type EndedRender, type PosterOutcome, type QueuedRender } from "../state.ts";
import type { CachedRender } from "./render-cache.ts";

/** A reuse made (the render as stored, and its log), or why not: then the render is admitted as any other. `gone`:
 * the cached render's file is no longer there, so its entry is to be forgotten. */
export type Reuse = { reused: EndedRender; lines: string[] } | { miss: string; gone: boolean };

/** Tries of a free file name: renders of the user starting in the same second take the next second's. */
const MAX_NAME_TRIES = 60;

/** `filename`, or the first one a second later each time that holds no object of the user's in R2. */
async function freeObjectName(bucket: R2Bucket, userId: string, filename: string): Promise<string> {
  let name = filename;
  for (let i = 0; i < MAX_NAME_TRIES && (await bucket.head(renderKey(userId, name))); i++) name = nextRenderFilename(name);
  return name;
}

/** Bytes of an object read at once while it is copied; a larger object goes over in R2 multipart parts
 * (chunkedToKey: 8 MiB parts), so a copy holds at most a part and a piece in memory. */
const COPY_PIECE_BYTES = 1024 * 1024;

/**
 * The bytes of object `from` (of `size` bytes) as a stream read a piece at a time by range, each piece read whole
 * before it is written. Not the object's own body stream: piped into a put on the same bucket, that one never ends
 * under wrangler's local R2 (a get waits for the put that waits for it).
 */
function piecesOf(bucket: R2Bucket, from: string, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= size) return controller.close();
      const length = Math.min(COPY_PIECE_BYTES, size - offset);
      const piece = await bucket.get(from, { range: { offset, length } });
      if (!piece) throw new Error(`${from} was deleted while it was copied`);
      controller.enqueue(new Uint8Array(await piece.arrayBuffer()));
      offset += length;
    },
  });
}

/**
 * Copies one object of the user's to `to`, within their storage quota (the quota's 413 otherwise); its size. R2's
 * Worker binding has no copy: a small object is read whole and put, a larger one goes over in multipart pieces.
 */
async function copyObject(env: Env, userId: string, source: R2Object, to: string, contentType: string): Promise<number> {
  const { key, size } = source;
  return storeWithinQuota(env, userId, to, { exact: size }, async (reservation) => {
    if (size > COPY_PIECE_BYTES) return chunkedToKey(env.FILES, to, piecesOf(env.FILES, key, size), size, contentType, reservation);
    const bytes = await (await env.FILES.get(key))?.arrayBuffer();
    if (!bytes) throw new Error(`${key} was deleted while it was copied`);
    await reservation.hold();
    return (await env.FILES.put(to, bytes, { httpMetadata: { contentType } })).size;
  });
}

/** The cached render's poster copied beside the new file, or why the new render has none (it is done all the same). */
async function copyPoster(env: Env, userId: string, cached: CachedRender, filename: string): Promise<PosterOutcome> {
  if (!cached.poster) return { error: NO_POSTER_BEFORE };
  if ("error" in cached.poster) return cached.poster;
  const source = await env.FILES.head(posterKey(userId, cached.filename));
  if (!source) return { error: `the poster of render ${cached.renderId} was not found to copy` };
  try {
    await copyObject(env, userId, source, posterKey(userId, filename), POSTER_CONTENT_TYPE);
    return { stored: true };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { error: `the poster of render ${cached.renderId} was not copied: ${error.message}` };
  }
}

/**
 * The cached render's carry manifest copied beside the new file: whether it was. None when the original left none
 * (a split render, gif, png-sequence); past the quota the reuse is done without one, and the next render of the
 * project carries from an older render or renders in full.
 */
async function copyManifest(env: Env, userId: string, cached: CachedRender, filename: string): Promise<boolean> {
  const source = await env.FILES.head(manifestKey(userId, cached.filename));
  if (!source) return false;
  try {
    await copyObject(env, userId, source, manifestKey(userId, filename), MANIFEST_CONTENT_TYPE);
    return true;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    logEvent("info", "render.reuse_manifest_not_copied", { from: cached.renderId, why: error.message });
    return false;
  }
}

/**
 * Makes `render` a reuse of `cached`: copies its file (and poster) under a free name, inserts its row done. A miss
 * (the file gone, the quota full) leaves nothing behind and says why.
 */
export async function reuseRender(env: Env, render: QueuedRender, cached: CachedRender, now = Date.now()): Promise<Reuse> {
  const { userId } = render;
  const source = await env.FILES.head(renderKey(userId, cached.filename));
  if (!source) return { miss: `render ${cached.renderId}'s file is gone`, gone: true };
  const first = await reuseAs(env, render, cached, source, await freeObjectName(env.FILES, userId, render.filename), now);
  if (!("taken" in first)) return first;
  // A render of the user that stored no file (failed, cancelled, still queued) holds that name in D1: the next name
  // free there and in R2 (reads made on this path only).
  const free = await freeRenderFilename(openDb(env.DB), userId, nextRenderFilename(first.taken));
  const again = await reuseAs(env, render, cached, source, await freeObjectName(env.FILES, userId, free), now);
  return "taken" in again ? { miss: `its file name ${again.taken} was taken meanwhile`, gone: false } : again;
}

/** The reuse under `filename`, or `taken` when D1 refused that name (nothing is left behind then). */
async function reuseAs(env: Env, render: QueuedRender, cached: CachedRender, source: R2Object, filename: string, now: number): Promise<Reuse | { taken: string }> {
  const { userId } = render;
  const copied = [renderKey(userId, filename)];
  try {
    const size = await copyObject(env, userId, source, copied[0]!, FORMAT_CONTENT_TYPES[render.options.format]);
    const [poster, manifest] = await Promise.all([copyPoster(env, userId, cached, filename), copyManifest(env, userId, cached, filename)]);
    if ("stored" in poster) copied.push(posterKey(userId, filename));
    if (manifest) copied.push(manifestKey(userId, filename));
    const line = `reused render ${cached.renderId}: it is done and had the very same inputs (every project file by content, these options and variables, render engine ${RENDER_ENGINE_VERSION}), so its file is this render's, copied; no node rendered it (force: true renders anew). Its log follows.`;
    const { phase: _phase, status: _status, queue: _queue, charge: _charge, ...base } = render;
    const reused: EndedRender = {
      ...base,
      phase: "ended",
      status: "done",
      filename,
      plan: cached.plan,
      lastLine: line,
      outcome: { ok: true, size, poster },
      doneAt: now,
      size,
      error: null,
      segments: null,
      synced: true,
      syncTries: 0,
      deletedAt: null,
      actual: { renderSeconds: 0, wallSeconds: Math.max(0, (now - render.startedAt) / 1000) },
      reusedFrom: cached.renderId,
    };
    await insertReusedRender(openDb(env.DB), reused);
    return { reused, lines: [line, ...cached.lines] };
  } catch (error) {
    // Nothing of a reuse that did not happen stays: its copies go (the render is then admitted as any other).
    await removeStored(env, userId, copied);
    if (isFilenameTaken(error)) return { taken: filename };
    if (!(error instanceof ApiError)) throw error;
    logEvent("info", "render.reuse_missed", { renderId: render.id, from: cached.renderId, why: error.message });
    return { miss: error.message, gone: false };
  }
}
