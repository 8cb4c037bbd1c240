// Writes a project file into R2: streamed when the length is known, multipart when it is not, never buffered whole.
// Every writer works within a storage reservation (storage-usage.ts): it stores no more than was reserved and holds
// the reservation right before its last bytes are kept.
import { ApiError } from "../../http/errors.ts";
import { fileKey, type ProjectRef } from "../../storage/keys.ts";
import type { Reservation } from "./storage-usage.ts";

const PART_BYTES = 8 * 1024 * 1024;

export const tooLarge = (limit: number) =>
  new ApiError(413, `file is larger than the limit of ${limit} bytes (${Math.round(limit / 1048576)} MiB)`);

/** Writes bytes already in memory into a project file, past the quota's 413 when they exceed the reservation. */
export async function writeBytes(bucket: R2Bucket, project: ProjectRef, path: string, bytes: Uint8Array, contentType: string, reservation: Reservation) {
  if (bytes.byteLength > reservation.bytes) throw reservation.exceeded();
  await reservation.hold();
  await bucket.put(fileKey(project, path), bytes, { httpMetadata: { contentType } });
  return bytes.byteLength;
}

/**
 * Passes a body of `length` bytes through, renewing its reservation while bytes flow and holding it before the
 * last chunk goes on: R2 keeps an object only once its stream ends, so a write whose reservation lapsed never lands.
 */
function heldStream(reservation: Reservation, length: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    async transform(chunk, controller) {
      seen += chunk.byteLength;
      await (seen >= length ? reservation.hold() : reservation.keepAlive());
      controller.enqueue(chunk);
    },
  });
}

/** Streams a body of declared length straight into an R2 key, never holding it whole. Returns the stored size. */
export async function streamToKey(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  contentType: string,
  reservation: Reservation,
  /** The object's custom metadata (a live piece's figures, worker/renders/live/live-pieces.ts). */
  customMetadata?: Record<string, string>,
): Promise<number> {
  if (length > reservation.bytes) throw reservation.exceeded();
  const fixed = new FixedLengthStream(length);
  const [, object] = await Promise.all([
    body.pipeThrough(heldStream(reservation, length)).pipeTo(fixed.writable),
    bucket.put(key, fixed.readable, { httpMetadata: { contentType }, ...(customMetadata ? { customMetadata } : {}) }),
  ]);
  return object?.size ?? length;
}

/** Streams a request body of declared length into a project file. */
export function writeStream(
  bucket: R2Bucket,
  project: ProjectRef,
  path: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  contentType: string,
  reservation: Reservation,
): Promise<number> {
  return streamToKey(bucket, fileKey(project, path), body, length, contentType, reservation);
}

/**
 * A body of unknown length (chunked upload): R2 multipart in 8 MiB parts, aborted past the size limit (413) or past
 * what its reservation allows (the quota's 413).
 */
export function writeChunked(
  bucket: R2Bucket,
  project: ProjectRef,
  path: string,
  body: ReadableStream<Uint8Array>,
  limit: number,
  contentType: string,
  reservation: Reservation,
): Promise<number> {
  return chunkedToKey(bucket, fileKey(project, path), body, limit, contentType, reservation);
}

/** writeChunked into any R2 key (a render's copy, worker/renders/room/reuse-render.ts). */
export async function chunkedToKey(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  limit: number,
  contentType: string,
  reservation: Reservation,
): Promise<number> {
  const upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType } });
  const parts: R2UploadedPart[] = [];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let total = 0;
  const flush = async () => {
    const part = new Uint8Array(pendingBytes);
    let at = 0;
    for (const chunk of pending) {
      part.set(chunk, at);
      at += chunk.byteLength;
    }
    parts.push(await upload.uploadPart(parts.length + 1, part));
    pending = [];
    pendingBytes = 0;
  };
  try {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit || total > reservation.bytes) {
        await reader.cancel();
        throw total > limit ? tooLarge(limit) : reservation.exceeded();
      }
      await reservation.keepAlive();
      pending.push(value);
      pendingBytes += value.byteLength;
      if (pendingBytes >= PART_BYTES) await flush();
    }
    if (pendingBytes > 0 || parts.length === 0) await flush();
    await reservation.hold();
    await upload.complete(parts);
    return total;
  } catch (err) {
    await upload.abort();
    throw err;
  }
}
