// Serves an R2 object the way browsers and video players expect: type, length, ETag, single Range, ?download.
// Always with nosniff, so a browser never second-guesses the type into something it would execute.
import { parseByteRange } from "../../core/http/byte-range.ts";
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

export async function serveObject(bucket: R2Bucket, key: string, request: Request, options: ServeOptions): Promise<Response> {
  const rangeHeader = request.headers.get("Range");
  // Without a Range one GET is enough (it carries size and ETag); a range needs the size first for 416 and suffixes.
  const head = rangeHeader ? await bucket.head(key) : await bucket.get(key);
  if (!head) throw notFound(options.notFoundMessage);
  const headers = new Headers({
    "Content-Type": options.contentType,
    "Accept-Ranges": "bytes",
    ETag: head.httpEtag,
    "Last-Modified": head.uploaded.toUTCString(),
    "Cache-Control": "private, no-cache",
    "X-Content-Type-Options": "nosniff",
    ...options.headers,
  });
  if (options.downloadName) headers.set("Content-Disposition", contentDisposition(options.downloadName));
  if (!rangeHeader && "body" in head) {
    headers.set("Content-Length", String(head.size));
    return new Response(request.method === "HEAD" ? null : (head as R2ObjectBody).body, { status: 200, headers });
  }
  // If-Range: only honour the range while the object is still the one the client saw.
  const ifRange = request.headers.get("If-Range");
  const range = ifRange && ifRange !== head.httpEtag ? { kind: "none" as const } : parseByteRange(rangeHeader, head.size);
  if (range.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${head.size}`);
    headers.set("Content-Type", "application/json");
    return new Response(JSON.stringify(errorBody(`range not satisfiable: ${rangeHeader} (size ${head.size})`, "range_not_satisfiable")), { status: 416, headers });
  }
  const object = await bucket.get(key, range.kind === "range" ? { range: { offset: range.offset, length: range.length } } : {});
  if (!object) throw notFound(options.notFoundMessage);
  if (range.kind === "range") {
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${head.size}`);
    headers.set("Content-Length", String(range.length));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(head.size));
  return new Response(request.method === "HEAD" ? null : object.body, { status: 200, headers });
}
