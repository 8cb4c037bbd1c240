// The project file path at the end of a `…/files/<path>` URL, checked on the raw text of the URL before any
// decoding, so that no encoded spelling of "..", a backslash or NUL slips through; a bad one is a 400.
import { checkProjectPath } from "../../core/paths/project-path.ts";
import { rawPathOf } from "./dot-segments.ts";
import { badRequest } from "./errors.ts";

/** `start`: the index, among the URL's "/"-separated pathname segments, of the path's first segment. */
export function rawFilePath(url: string, start: number) {
  const check = checkProjectPath(rawPathOf(url).split("/").slice(start).join("/"));
  if (!check.ok) throw badRequest(`invalid path: ${check.error}`);
  return check;
}
