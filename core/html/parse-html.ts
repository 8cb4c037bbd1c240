// Thin wrapper over htmlparser2 so the rest of core never depends on its options or node classes directly.
import { parseDocument } from "htmlparser2";
import { isTag, isText, type Document, type Element, type AnyNode } from "domhandler";

export type HtmlElement = Element;
export type HtmlDocument = Document;

/** Parse an HTML string forgivingly; entities in attributes and text are decoded. */
export function parseHtml(html: string): HtmlDocument {
  return parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true });
}

/** Every element of the tree in document order (depth first, pre-order). */
export function listElements(root: Document | Element): HtmlElement[] {
  const out: HtmlElement[] = [];
  const visit = (nodes: AnyNode[]): void => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      out.push(node);
      visit(node.children);
    }
  };
  visit(root.children);
  return out;
}

/** The raw text content of an element (script and style bodies are single text nodes). */
export function readText(element: HtmlElement): string {
  let text = "";
  for (const child of element.children) {
    if (isText(child)) text += child.data;
    else if (isTag(child)) text += readText(child);
  }
  return text;
}

/** An attribute's value, or null when the attribute is absent (an empty attribute is ""). */
export function readAttribute(element: HtmlElement, name: string): string | null {
  const value = element.attribs[name];
  return value === undefined ? null : value;
}

export function hasAttribute(element: HtmlElement, name: string): boolean {
  return Object.hasOwn(element.attribs, name);
}

/** Direct child elements, skipping text and comments. */
export function listChildElements(element: HtmlElement): HtmlElement[] {
  return element.children.filter((child): child is HtmlElement => isTag(child));
}
