// The dashboard's only way to the API: same-origin fetch with the session cookie; error bodies become ApiError.
// It sends back the newest X-D1-Bookmark the API answered, so reads that a database replica may serve still show
// the person's own writes (the idea they just posted, their vote).
import { parseJson } from "../../../core/parse-text.ts";
import { logWhy } from "./log-why.ts";

/** An API failure with the server's own `{ error }` message, ready to show to the person. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

/** An error body of the API: `{ error, code }` (worker/openapi/operation.ts), read for its message. */
function hasErrorMessage(body: unknown): body is { error: string } {
  return typeof body === "object" && body !== null && "error" in body && typeof body.error === "string";
}

function messageOf(body: unknown, status: number, statusText: string): string {
  if (hasErrorMessage(body)) return body.error;
  return `request failed: ${status} ${statusText}`.trim();
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  // Not JSON (a proxy's page, a plain-text answer): the text itself, which messageOf shows as it came.
  const json = parseJson(text);
  return json.ok ? json.value : text;
}

export interface RequestOptions {
  method?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const BOOKMARK_HEADER = "X-D1-Bookmark";
const BOOKMARK_KEY = "studio.d1Bookmark";

/** The newest bookmark seen, kept for the tab (across reloads) where storage allows. */
let bookmark: string | null = readStoredBookmark();

function readStoredBookmark(): string | null {
  try {
    return sessionStorage.getItem(BOOKMARK_KEY);
  } catch (err) {
    logWhy("session storage is not available: reads see this page's own writes only", err);
    return null;
  }
}

/** Keeps the newer of two bookmarks: D1's bookmarks sort lexicographically from oldest to newest. */
function keepBookmark(res: Response): void {
  const answered = res.headers.get(BOOKMARK_HEADER);
  if (!answered || (bookmark !== null && answered <= bookmark)) return;
  bookmark = answered;
  try {
    sessionStorage.setItem(BOOKMARK_KEY, answered);
  } catch (err) {
    logWhy("session storage refused the bookmark (private mode?): it lives as long as the page", err);
  }
}

/** Calls the API and returns the parsed JSON body; throws ApiError with the server's message on 4xx/5xx. */
export async function api<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...(bookmark ? { [BOOKMARK_HEADER]: bookmark } : {}), ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  let res: Response;
  try {
    res = await fetch(path, { method: options.method ?? "GET", headers, body, credentials: "same-origin", signal: options.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "the studio could not be reached; check your connection and try again");
  }
  keepBookmark(res);
  const parsed = await parse(res);
  if (!res.ok) throw new ApiError(res.status, messageOf(parsed, res.status, res.statusText), parsed);
  return parsed as T;
}

/** A file path inside a project, each segment URL-encoded, for the files endpoint. */
export function filePath(slug: string, path: string): string {
  return `/api/projects/${encodeURIComponent(slug)}/files/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** A project file's text as stored (GET …/files/<path>), or the API's message. */
export async function readText(slug: string, path: string): Promise<string> {
  const res = await fetch(filePath(slug, path), { credentials: "same-origin" });
  if (!res.ok) {
    const body = await parse(res);
    throw new Error(hasErrorMessage(body) ? body.error : `could not open ${path}`);
  }
  return res.text();
}

/**
 * A project file on the content origin, under a capability link (contentUrl of the project). Everything the
 * dashboard *shows* from a project comes from there, never from this origin: an author's SVG or HTML must never
 * run next to the dashboard's cookie.
 */
export function contentFile(contentUrl: string, path: string): string {
  return contentUrl + path.split("/").map(encodeURIComponent).join("/");
}

/** The message of anything thrown, for an error banner. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
