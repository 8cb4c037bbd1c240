// One error type for the whole API. Every error body is { "error": "<message>", "code": "<code>" }, plus extra
// fields when a route needs them (the idea board's 409 carries { exists, idea }). `error` is for people and may be
// reworded; `code` is for programs and never changes once shipped: agents branch on it.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { logEvent } from "./log.ts";

/**
 * Every code the API sends, with what it means. The served docs list this table, so adding a code here documents
 * it. Codes are generic per status unless a client would act differently on the specific case.
 */
export const ERROR_CODES = {
  bad_request: "The request is malformed or a body field is invalid; the message names the field.",
  invalid_json: "The body is not valid JSON.",
  invalid_query: "A query parameter is unknown or its value is not allowed (booleans are true, false, 1 or 0).",
  invalid_cursor: "The `next` cursor was not one this API returned for this list.",
  invalid_idempotency_key: "The Idempotency-Key header is empty, longer than 255 characters or not printable ASCII.",
  unauthorized: "No valid credential: a missing, wrong, rotated or revoked token, session, bot key or node key.",
  forbidden: "The caller is known but may not do this.",
  insufficient_scope: "An app connected through OAuth was not granted the scope this needs, or the route is closed to connected apps (account settings, keys, token rotation).",
  cross_site_refused: "A cookie-authenticated write came from another site (the CSRF rule).",
  link_expired: "A capability or share link has expired.",
  link_invalid: "A capability or share link is forged, revoked or for something else.",
  admin_only: "Only idea-board admins can do this.",
  protected_file: "index.html cannot be deleted.",
  not_found: "Nothing by this name for this caller (other users' things are not found either).",
  method_not_allowed: "The path exists but not with this method; the Allow header lists the methods it takes.",
  conflict: "The request conflicts with the current state; the message says how.",
  project_exists: "A project with this slug already exists.",
  batch_in_progress: "A batch is rendering in this project, and its rows are the project's renders until it ends: follow or cancel it at /api/projects/{slug}/batch.",
  render_in_progress: "A render is in progress in this project; a batch starts once it has ended (or cancel it).",
  duplicate_idea: "An idea like this exists: vote for it (the body carries it as `idea`), or send force: true.",
  already_exists: "A record with this name exists (groups, research records).",
  path_conflict: "A file is in the way of a directory, or a directory in the way of a file.",
  invalid_status_change: "Idea status moves one step at a time: open, building, shipped.",
  too_many_bot_keys: "The person already holds the most bot keys allowed; revoke one first.",
  idempotency_in_progress: "A request with this Idempotency-Key is still being answered; retry in a moment.",
  idempotency_key_reused: "This Idempotency-Key was used with a different request (method, path or body).",
  length_required: "The upload needs a Content-Length.",
  payload_too_large: "The body or file is over the limit named in the message.",
  storage_quota_exceeded: "The user's project files and renders would pass their storage quota; the body gives `used` and `limit` in bytes. Delete files, projects or renders to make room.",
  unsupported_media_type: "A session-cookie request sent a JSON body without Content-Type: application/json.",
  range_not_satisfiable: "The Range header asks for bytes past the end of the file.",
  unprocessable: "The request was understood but the work failed (e.g. a snapshot); the body says why.",
  cap_reached: "Too much work in progress for this user (renders, snapshots, checks, previews); see Retry-After.",
  budget_exceeded: "A render or batch would pass a daily render-seconds budget of its caller (the user's, the bot key's or the connected app's); the body's `budget` names it (kind, id, limit, used, estimate, resetsAt); nothing was queued. See Retry-After (the next UTC midnight).",
  rate_limited: "Too many idea-board writes, or OAuth client registrations, in the window; see Retry-After.",
  internal: "An unexpected server error; nothing about it is disclosed.",
  misconfigured: "The studio's configuration is invalid (every request answers this until its operator fixes it); the message names the setting.",
  upstream_failed: "A service the studio depends on (an identity provider, a preview) failed.",
  unavailable: "The service cannot take this now; see Retry-After.",
  no_render_node: "No render node is available; start one and retry (see Retry-After).",
  timeout: "The work did not finish in time; the message names the stage.",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  411: "length_required",
  413: "payload_too_large",
  415: "unsupported_media_type",
  416: "range_not_satisfiable",
  422: "unprocessable",
  429: "rate_limited",
  500: "internal",
  502: "upstream_failed",
  503: "unavailable",
  504: "timeout",
};

/** The generic code of a status, for errors that have no more specific one. */
export function codeOfStatus(status: number): ErrorCode {
  return CODE_OF_STATUS[status] ?? (status >= 500 ? "internal" : "bad_request");
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? codeOfStatus(status);
  }
}

export const badRequest = (message: string, code: ErrorCode = "bad_request") => new ApiError(400, message, {}, {}, code);
export const unauthorized = (reason: string) => new ApiError(401, `unauthorized: ${reason}`);
export const forbidden = (message: string, code: ErrorCode = "forbidden") => new ApiError(403, message, {}, {}, code);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string, extra: Record<string, unknown> = {}, code: ErrorCode = "conflict") =>
  new ApiError(409, message, extra, {}, code);
export const methodNotAllowed = (method: string, allow: string[]) =>
  new ApiError(405, `method not allowed: ${method}; this path takes ${allow.join(", ")}`, {}, { Allow: allow.join(", ") });

/** The error body every error response carries, for responses built outside handleError. */
export const errorBody = (message: string, code: ErrorCode, extra: Record<string, unknown> = {}) => ({ error: message, code, ...extra });

/** hono's onError: ApiError becomes its status; anything unexpected is a logged 500 that leaks nothing. */
export function handleError(err: Error, c: Context): Response {
  // The query builder wraps what the D1 binding threw: the credential gate's 401 (worker/auth/authenticate.ts)
  // arrives as the cause, and is no internal error.
  if (!(err instanceof ApiError) && err.cause instanceof ApiError) return handleError(err.cause, c);
  if (err instanceof ApiError) {
    return c.json(errorBody(err.message, err.code, err.extra), err.status, err.headers);
  }
  // hono throws HTTPException for malformed input it detects itself (e.g. body limits).
  const status = (err as { status?: unknown }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return c.json(errorBody(err.message || "bad request", codeOfStatus(status)), status as ContentfulStatusCode);
  }
  logEvent("error", "unhandled_error", { error: err });
  return c.json(errorBody("internal error", "internal"), 500);
}
