// Reads a request body as text without ever holding more than a limit: a declared Content-Length over the limit is
// refused before reading, and a chunked body is counted while it streams and cancelled the moment it passes the
// limit. (hono's bodyLimit middleware does the same per route with one fixed size; here the limit belongs to the
// reader, so every JSON route has one and the routes that take raw uploads keep their own.)
import type { Env } from "../env.ts";
import { ApiError, badRequest } from "./errors.ts";
import { logEvent } from "./log.ts";

/** The body limit of every JSON route, unless the route says otherwise (project creation takes whole files). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * A route's body limit, declared once: the route's reader and any middleware that reads the body ahead of it
 * (idempotency.ts, to fingerprint it) use the same one, so nothing holds more of a body than its route accepts.
 */
export interface BodyLimit {
  bytes: (env: Env) => number;
  /** Appended to the 413 message, e.g. where large content should go instead. */
  hint?: string;
}

/** The limit of every JSON route that does not declare its own. */
export const JSON_BODY: BodyLimit = { bytes: () => JSON_BODY_LIMIT };

function mib(bytes: number): string {
  const value = bytes / 1048576;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MiB`;
}

export function bodyTooLarge(limit: number, hint = ""): ApiError {
  return new ApiError(413, `request body is larger than the limit of ${limit} bytes (${mib(limit)})${hint}`);
}

export async function readBoundedText(request: Request, limit: number, hint = ""): Promise<string> {
  return new TextDecoder().decode(await readBoundedBytes(request, limit, hint));
}

export async function readBoundedBytes(request: Request, limit: number, hint = ""): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null) {
    const length = Number(declared);
    if (!Number.isInteger(length) || length < 0) throw badRequest("invalid Content-Length");
    if (length > limit) throw bodyTooLarge(limit, hint);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // The 413 is the answer either way; a body that cannot be cancelled is dropped with the request.
      await reader.cancel().catch((error: unknown) => logEvent("warn", "body.cancel_failed", { error, answer: "413" }));
      throw bodyTooLarge(limit, hint);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
