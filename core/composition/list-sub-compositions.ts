// Sub-composition hosts are elements with data-composition-src; the player and renderer load each src into its host.
import { hasAttribute, listElements, parseHtml, readAttribute, type HtmlDocument } from "../html/parse-html.ts";
import { parsePixels, parseSeconds, parseTrackIndex } from "./parse-number-attribute.ts";

export interface SubCompositionHost {
  compositionId: string | null;
  src: string;
  start: number | null;
  duration: number | null;
  trackIndex: number | null;
  width: number | null;
  height: number | null;
}

/** Every sub-composition host of an HTML document, in document order. */
export function listSubCompositions(html: string): SubCompositionHost[] {
  return listSubCompositionsOf(parseHtml(html));
}

export function listSubCompositionsOf(document: HtmlDocument): SubCompositionHost[] {
  return listElements(document)
    .filter((element) => hasAttribute(element, "data-composition-src"))
    .map((element) => ({
      compositionId: readAttribute(element, "data-composition-id")?.trim() || null,
      src: (readAttribute(element, "data-composition-src") ?? "").trim(),
      start: parseSeconds(readAttribute(element, "data-start")),
      duration: parseSeconds(readAttribute(element, "data-duration")),
      trackIndex: parseTrackIndex(readAttribute(element, "data-track-index")),
      width: parsePixels(readAttribute(element, "data-width")),
      height: parsePixels(readAttribute(element, "data-height")),
    }));
}
