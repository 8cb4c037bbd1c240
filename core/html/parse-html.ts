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

/** One <script>'s body as written in the source: its text and where it stands ([start, end) offsets). */
export interface ScriptBody {
  start: number;
  end: number;
  text: string;
  /** The element has a src attribute (the browser then ignores its body). */
  hasSrc: boolean;
}

/** The bodies of the document's <script> elements with their source offsets (empty bodies left out). */
export function listScriptBodies(html: string): ScriptBody[] {
  // Entities are not decoded: a script's body is raw text, and the offsets must be the source's.
  const document = parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: false, withStartIndices: true, withEndIndices: true });
  const out: ScriptBody[] = [];
  for (const element of listElements(document)) {
    if (element.name !== "script") continue;
    const text = element.children.find(isText);
    if (!text || text.startIndex === null || text.endIndex === null) continue;
    out.push({ start: text.startIndex, end: text.endIndex + 1, text: html.slice(text.startIndex, text.endIndex + 1), hasSrc: hasAttribute(element, "src") });
  }
  return out;
}
