// The variables a composition declares (`data-composition-variables`, a JSON array of {id, type, label, default,
// options}) as HyperFrames reads them for a render's `--variables` check: on the `<html>` element and on the root
// element (the first [data-composition-id], inside a <template> too). Only the entry file counts, as in HyperFrames:
// a sub-composition's own declarations are its defaults, not the render's schema. Pure.
import { listElements, parseHtml, readAttribute, type HtmlDocument, type HtmlElement } from "../html/parse-html.ts";
import { findRootElement } from "./find-root-element.ts";
import { parseJson } from "../parse-text.ts";

export interface VariableDeclaration {
  id: string;
  /** string | color | number | boolean | enum | font | image; anything else (or none) is not type-checked. */
  type: string | null;
  /** An enum's allowed values ({value} objects or bare values, as declared). */
  options: unknown[];
  hasDefault: boolean;
  default?: unknown;
}

/** The entries of one element's data-composition-variables; a malformed attribute declares nothing (lint says so). */
export function parseDeclarations(text: string | null): VariableDeclaration[] {
  if (!text) return [];
  const read = parseJson(text);
  if (!read.ok) return []; // malformed: declares nothing (lint names the problem)
  const parsed = read.value;
  if (!Array.isArray(parsed)) return [];
  const out: VariableDeclaration[] = [];
  for (const entry of parsed) {
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) continue;
    const record = entry as Record<string, unknown>;
    if (typeof record["id"] !== "string" || record["id"] === "") continue;
    const hasDefault = "default" in record;
    out.push({
      id: record["id"],
      type: typeof record["type"] === "string" ? record["type"] : null,
      options: Array.isArray(record["options"]) ? record["options"] : [],
      hasDefault,
      ...(hasDefault ? { default: record["default"] } : {}),
    });
  }
  return out;
}

/** Declarations of a composition file: `<html>` first, then its root element; a later entry of the same id wins. */
export function readVariableDeclarations(html: string): VariableDeclaration[] {
  return documentVariableDeclarations(parseHtml(html));
}

/** readVariableDeclarations of a file already parsed (the render node reads its root from the same document). */
export function documentVariableDeclarations(document: HtmlDocument): VariableDeclaration[] {
  const htmlElement = listElements(document).find((element) => element.name === "html") ?? null;
  const root = findRootElement(document);
  const holders: HtmlElement[] = [];
  if (htmlElement) holders.push(htmlElement);
  if (root && root !== htmlElement) holders.push(root);
  const byId = new Map<string, VariableDeclaration>();
  for (const holder of holders) {
    for (const declaration of parseDeclarations(readAttribute(holder, "data-composition-variables"))) byId.set(declaration.id, declaration);
  }
  return [...byId.values()];
}
