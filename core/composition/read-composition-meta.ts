// Reads what the Worker and the render node need to know about a composition without running it.
import { parseHtml, readAttribute } from "../html/parse-html.ts";
import { findRootElement } from "./find-root-element.ts";
import { parsePixels, parseSeconds } from "./parse-number-attribute.ts";

export interface CompositionMeta {
  compositionId: string | null;
  duration: number | null;
  width: number | null;
  height: number | null;
}

/** Id, duration (seconds) and canvas size from the root element; null for anything absent or malformed. */
export function readCompositionMeta(html: string): CompositionMeta {
  const root = findRootElement(parseHtml(html));
  if (!root) return { compositionId: null, duration: null, width: null, height: null };
  const id = readAttribute(root, "data-composition-id");
  return {
    compositionId: id && id.trim() ? id.trim() : null,
    duration: parseSeconds(readAttribute(root, "data-duration")),
    width: parsePixels(readAttribute(root, "data-width")),
    height: parsePixels(readAttribute(root, "data-height")),
  };
}
