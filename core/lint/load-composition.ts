// Parses one composition file once, with its scripts and stylesheets, so every rule reads the same structure.
import { parseCss, type CssNode } from "../css/parse-css.ts";
import { findRootElement } from "../composition/find-root-element.ts";
import { listElements, parseHtml, readAttribute, readText, type HtmlElement } from "../html/parse-html.ts";
import { stripJs, type StrippedScript } from "../js/strip-js.ts";
import { candidatePaths, classifyReference } from "./project-paths.ts";
import type { LintInputFile } from "./types.ts";

export interface ScriptBlock {
  element: HtmlElement;
  /** The src attribute, or null for an inline script. */
  src: string | null;
  /** Where the code lives: the HTML file for inline scripts, the .js file for local ones. */
  file: string;
  /** Null for remote scripts and local scripts whose text is unknown. */
  source: StrippedScript | null;
  /** The original text, for the syntax check; null when source is null. */
  text: string | null;
  isModule: boolean;
}

export interface StyleSheet {
  /** The <style> or <link> element that brings the CSS in. */
  element: HtmlElement;
  /** Where the CSS lives: the HTML file for <style>, the .css file for a local <link>. */
  file: string;
  text: string;
  nodes: CssNode[];
}

export interface CompositionFile {
  path: string;
  elements: HtmlElement[];
  root: HtmlElement | null;
  isEntry: boolean;
  scripts: ScriptBlock[];
  styles: StyleSheet[];
}

/** False for data blocks such as `application/json` or `importmap`, which the browser does not run. */
function isJavaScriptType(type: string): boolean {
  return type === "" || type === "module" || /(?:java|ecma)script/i.test(type);
}

/** Look up a project file from a reference inside `fromFile`. */
export function findProjectFile(files: Map<string, LintInputFile>, reference: string, fromFile: string): LintInputFile | null {
  if (classifyReference(reference) !== "local") return null;
  for (const candidate of candidatePaths(reference, fromFile)) {
    const file = files.get(candidate);
    if (file) return file;
  }
  return null;
}

export function loadComposition(file: LintInputFile, files: Map<string, LintInputFile>, isEntry: boolean): CompositionFile {
  const document = parseHtml(file.text ?? "");
  const elements = listElements(document);
  const scripts: ScriptBlock[] = [];
  const styles: StyleSheet[] = [];
  for (const element of elements) {
    if (element.name === "script") {
      const type = (readAttribute(element, "type") ?? "").trim();
      if (!isJavaScriptType(type)) continue;
      const src = readAttribute(element, "src");
      const isModule = type === "module";
      if (src === null) {
        const text = readText(element);
        scripts.push({ element, src, file: file.path, source: stripJs(text), text, isModule });
        continue;
      }
      const local = findProjectFile(files, src, file.path);
      const text = local?.text ?? null;
      scripts.push({ element, src, file: local?.path ?? file.path, source: text !== null ? stripJs(text) : null, text, isModule });
    } else if (element.name === "style") {
      const text = readText(element);
      styles.push({ element, file: file.path, text, nodes: parseCss(text) });
    } else if (element.name === "link" && /\bstylesheet\b/i.test(readAttribute(element, "rel") ?? "")) {
      const local = findProjectFile(files, readAttribute(element, "href") ?? "", file.path);
      if (local?.text !== undefined) styles.push({ element, file: local.path, text: local.text, nodes: parseCss(local.text) });
    }
  }
  return { path: file.path, elements, root: findRootElement(document), isEntry, scripts, styles };
}
