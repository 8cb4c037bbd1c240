// Serves an R2 object the way browsers and video players expect: type, length, ETag, single Range, ?download.
// Always with nosniff, so a browser never second-guesses the type into something it would execute.
import { isUnsatisfiable, singleRange } from "../../core/http/byte-range.ts";
import { errorBody, notFound } from "./errors.ts";

export interface ServeOptions {
  contentType: string;
  /** Attachment file name when the caller asked for ?download. */
  downloadName?: string;
  notFoundMessage: string;
  /** Extra headers for every answer (e.g. a sandboxing CSP for active content). */
  headers?: Record<string, string>;
}

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The first and last byte R2 read, from the range it reports. */
function readBytes(range: R2Range | undefined, size: number): { first: number; last: number } {
  if (!range) return { first: 0, last: size - 1 };
  if ("suffix" in range && range.suffix !== undefined) return { first: size - Math.min(range.suffix, size), last: size - 1 };
  const offset = "offset" in range && range.offset !== undefined ? range.offset : 0;
  const length = "length" in range && range.length !== undefined ? range.length : size - offset;
  return { first: offset, last: Math.min(size, offset + length) - 1 };
}

function notSatisfiable(headers: Headers, header: string, size: number): Response {
  headers.set("Content-Range", `bytes */${size}`);
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(errorBody(`range not satisfiable: ${header} (size ${size})`, "range_not_satisfiable")), { status: 416, headers });
}

/**
 * One GET. R2 reads a single range from the Range header itself; If-Range (an ETag) becomes R2's If-Match, so a
 * changed object comes back without a body and is fetched whole. If-Range holding a date never resumes.
 */
async function getObject(bucket: R2Bucket, key: string, request: Request): Promise<{ object: R2ObjectBody | null; ranged: boolean }> {
  const ifRange = request.headers.get("If-Range");
  if (!singleRange(request.headers.get("Range")) || (ifRange !== null && !ifRange.startsWith('"'))) {
    return { object: await bucket.get(key), ranged: false };
  }
  const object = await bucket.get(key, { range: request.headers, ...(ifRange ? { onlyIf: new Headers({ "If-Match": ifRange }) } : {}) });
  if (object && !("body" in object)) return { object: await bucket.get(key), ranged: false };
  return { object, ranged: true };
}

export async function serveObject(bucket: R2Bucket, key: string, request: Request, options: ServeOptions): Promise<Response> {
  const rangeHeader = request.headers.get("Range") ?? "";
  let got;
  try {
    got = await getObject(bucket, key, request);
  } catch (error) {
    // Deployed R2 refuses a range past the end instead of ignoring it.
    const head = /range/i.test(String(error)) ? await bucket.head(key) : null;
    if (!head) throw error;
    return notSatisfiable(new Headers({ "X-Content-Type-Options": "nosniff", ...options.headers }), rangeHeader, head.size);
  }
  const { object, ranged } = got;
  if (!object) throw notFound(options.notFoundMessage);
  const headers = new Headers({
    "Content-Type": options.contentType,
    "Accept-Ranges": "bytes",
    ETag: object.httpEtag,
    "Last-Modified": object.uploaded.toUTCString(),
    "Cache-Control": "private, no-cache",
    "X-Content-Type-Options": "nosniff",
    ...options.headers,
  });
  if (options.downloadName) headers.set("Content-Disposition", contentDisposition(options.downloadName));
  let body: ReadableStream | null = object.body;
  if (request.method === "HEAD") {
    await object.body.cancel();
    body = null;
  }
  if (ranged) {
    if (isUnsatisfiable(singleRange(rangeHeader)!, object.size)) {
      await object.body.cancel();
      return notSatisfiable(headers, rangeHeader, object.size);
    }
    const { first, last } = readBytes(object.range, object.size);
    headers.set("Content-Range", `bytes ${first}-${last}/${object.size}`);
    headers.set("Content-Length", String(last - first + 1));
    return new Response(body, { status: 206, headers });
  }
  headers.set("Content-Length", String(object.size));
  return new Response(body, { status: 200, headers });
}
