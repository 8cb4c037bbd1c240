// Writes a project file into R2: streamed when the length is known, multipart when it is not, never buffered whole.
import { ApiError } from "../http/errors.ts";
import { fileKey, type ProjectRef } from "./keys.ts";

const PART_BYTES = 8 * 1024 * 1024;

export const tooLarge = (limit: number) =>
  new ApiError(413, `file is larger than the limit of ${limit} bytes (${Math.round(limit / 1048576)} MiB)`);

export async function writeBytes(bucket: R2Bucket, project: ProjectRef, path: string, bytes: Uint8Array, contentType: string) {
  await bucket.put(fileKey(project, path), bytes, { httpMetadata: { contentType } });
  return bytes.byteLength;
}

/** Streams a body of declared length straight into an R2 key, never holding it whole. Returns the stored size. */
export async function streamToKey(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  contentType: string,
): Promise<number> {
  const fixed = new FixedLengthStream(length);
  const [, object] = await Promise.all([body.pipeTo(fixed.writable), bucket.put(key, fixed.readable, { httpMetadata: { contentType } })]);
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
): Promise<number> {
  return streamToKey(bucket, fileKey(project, path), body, length, contentType);
}

/** A body of unknown length (chunked upload): R2 multipart in 8 MiB parts, aborted past the size limit. */
export async function writeChunked(
  bucket: R2Bucket,
  project: ProjectRef,
  path: string,
  body: ReadableStream<Uint8Array>,
  limit: number,
  contentType: string,
): Promise<number> {
  const upload = await bucket.createMultipartUpload(fileKey(project, path), { httpMetadata: { contentType } });
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
      if (total > limit) {
        await reader.cancel();
        throw tooLarge(limit);
      }
      pending.push(value);
      pendingBytes += value.byteLength;
      if (pendingBytes >= PART_BYTES) await flush();
    }
    if (pendingBytes > 0 || parts.length === 0) await flush();
    await upload.complete(parts);
    return total;
  } catch (err) {
    await upload.abort();
    throw err;
  }
}
