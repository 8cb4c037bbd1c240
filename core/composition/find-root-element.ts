// The root of a composition is the first element that carries data-composition-id, in document order.
import { hasAttribute, listElements, type HtmlDocument, type HtmlElement } from "../html/parse-html.ts";

export function findRootElement(document: HtmlDocument): HtmlElement | null {
  return listElements(document).find((element) => hasAttribute(element, "data-composition-id")) ?? null;
}
