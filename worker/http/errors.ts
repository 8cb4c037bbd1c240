// One error type for the whole API. Every error body is exactly { "error": "<message>" }, plus extra fields when a
// route needs them (the idea board's 409 carries { exists, idea }).
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (reason: string) => new ApiError(401, `unauthorized: ${reason}`);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string, extra: Record<string, unknown> = {}) => new ApiError(409, message, extra);

/** hono's onError: ApiError becomes its status; anything unexpected is a logged 500 that leaks nothing. */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof ApiError) {
    return c.json({ error: err.message, ...err.extra }, err.status, err.headers);
  }
  // hono throws HTTPException for malformed input it detects itself (e.g. body limits).
  const status = (err as { status?: unknown }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return c.json({ error: err.message || "bad request" }, status as ContentfulStatusCode);
  }
  console.error("unhandled error", err);
  return c.json({ error: "internal error" }, 500);
}
