// Cursors of paged lists (`?limit=&next=`): opaque to clients, base64url JSON inside. Each names its list, so a
// projects cursor given to the renders list is refused rather than misread. A cursor holds only where the page
// ends (keyset or offset), never anything the caller could use to reach another user's rows: every query is still
// scoped to the caller.
import { badRequest } from "./errors.ts";
import { decodeBase64Text, parseJson } from "../../core/parse-text.ts";

export type CursorList = "projects" | "renders" | "ideas";

/** The position after the last item of a page: a keyset (time, id) or an offset. */
export type Position = { at: number; id: string } | { offset: number };

const toBase64Url = (text: string) => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

export function encodeCursor(list: CursorList, position: Position): string {
  return toBase64Url(JSON.stringify({ list, ...position }));
}

export function decodeCursor(list: CursorList, cursor: string): Position {
  // Not base64 or not JSON: no cursor of any list, refused below like a cursor of another list.
  const text = decodeBase64Text(cursor.replaceAll("-", "+").replaceAll("_", "/"));
  const json = text.ok ? parseJson(text.value) : null;
  const v = ((json?.ok ? json.value : null) ?? {}) as Record<string, unknown>;
  if (v.list === list && Number.isSafeInteger(v.at) && typeof v.id === "string") return { at: v.at as number, id: v.id };
  if (v.list === list && Number.isSafeInteger(v.offset) && (v.offset as number) >= 0) return { offset: v.offset as number };
  throw badRequest(`invalid query next: not a cursor of the ${list} list`, "invalid_cursor");
}

/** A keyset position from a decoded cursor; an offset cursor here is as invalid as a malformed one. */
export function keysetOf(list: CursorList, cursor: string | undefined): { at: number; id: string } | null {
  if (cursor === undefined) return null;
  const position = decodeCursor(list, cursor);
  if ("at" in position) return position;
  throw badRequest(`invalid query next: not a cursor of the ${list} list`, "invalid_cursor");
}

/**
 * Cuts `rows` (fetched with one row past the page) to the page and makes the cursor of the next one, or null on the
 * last page. Without a limit every row is the page, as before paging existed.
 */
export function pageOf<T>(list: CursorList, rows: T[], limit: number | undefined, positionOf: (last: T) => Position) {
  if (limit === undefined || rows.length <= limit) return { items: rows, next: null };
  const items = rows.slice(0, limit);
  return { items, next: encodeCursor(list, positionOf(items[items.length - 1]!)) };
}
