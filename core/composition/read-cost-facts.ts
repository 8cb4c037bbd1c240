// What the render cost model (core/render/cost-model.ts) reads of a composition file before any node opens it: the
// root's declared size, length and rate, and the media, libraries and transparency that make a frame dearer. One
// parse serves both, for the Worker's quote. Pure.
import { listStyleRules, parseCss, parseDeclarations, splitSelectorList, type CssDeclaration } from "../css/parse-css.ts";
import { listElements, parseHtml, readAttribute, readText, type HtmlElement } from "../html/parse-html.ts";
import { findRootElement } from "./find-root-element.ts";
import { isShaderTransitionsUrl } from "./match-shader-transitions-url.ts";
import { readRootSize, type RootSize } from "./size-limits.ts";

export interface CompositionCostFacts {
  size: RootSize;
  videoClips: number;
  audioClips: number;
  shaderTransitions: boolean;
  /**
   * The root paints a background of its own (its style attribute, or a rule of the file's <style> naming its id, its
   * data-composition-id or one of its classes). Without one, a webm, mov or png-sequence keeps an alpha plane
   * (HyperFrames leaves html's and body's backgrounds out of those): a transparent frame costs more to capture and
   * encode. Read as written, not cascaded: an estimate's input, not the node's decision (page-background.ts).
   */
  rootBackground: boolean;
  /** A CSS filter that blurs or shadows (blur(), drop-shadow(), any backdrop-filter), in a <style> or a style attribute. */
  filterEffects: boolean;
}

/** The facts of a composition file; null when it has no root (no element with data-composition-id). */
export function readCompositionCostFacts(html: string): CompositionCostFacts | null {
  const document = parseHtml(html);
  const root = findRootElement(document);
  if (!root) return null;
  const elements = listElements(document);
  const count = (tag: string) => elements.filter((e) => e.name === tag).length;
  return {
    size: readRootSize(root),
    videoClips: count("video"),
    audioClips: count("audio"),
    shaderTransitions: elements.some((e) => e.name === "script" && loadsShaderTransitions(e)),
    rootBackground: paintsBackground(root, elements),
    filterEffects: elements.some(hasFilterEffect),
  };
}

// The library from its CDN URL, or from anywhere else (a project file, inline) as the script that sets it up calls it.
const SHADER_INIT = /\bHyperShader\s*\.\s*init\s*\(/;
const loadsShaderTransitions = (script: HtmlElement) =>
  isShaderTransitionsUrl(readAttribute(script, "src") ?? "") || SHADER_INIT.test(readText(script));

const FILTERS = new Set(["filter", "-webkit-filter"]);
const BACKDROP_FILTERS = new Set(["backdrop-filter", "-webkit-backdrop-filter"]);
const blursOrShadows = (declarations: CssDeclaration[]) =>
  declarations.some((d) => {
    const property = d.property.toLowerCase();
    const value = d.value.trim().toLowerCase();
    return (FILTERS.has(property) && /\b(?:blur|drop-shadow)\s*\(/.test(value)) || (BACKDROP_FILTERS.has(property) && !NO_PAINT.has(value));
  });
const hasFilterEffect = (element: HtmlElement) =>
  blursOrShadows(parseDeclarations(readAttribute(element, "style") ?? "")) ||
  (element.name === "style" && listStyleRules(parseCss(readText(element))).some((rule) => blursOrShadows(rule.declarations)));

const BACKGROUND = new Set(["background", "background-color", "background-image"]);
const NO_PAINT = new Set(["none", "transparent", "initial", "unset", "inherit", "revert"]);
const declaresBackground = (declarations: CssDeclaration[]) =>
  declarations.some((d) => BACKGROUND.has(d.property.toLowerCase()) && !NO_PAINT.has(d.value.trim().toLowerCase()));

function paintsBackground(root: HtmlElement, elements: HtmlElement[]): boolean {
  if (declaresBackground(parseDeclarations(readAttribute(root, "style") ?? ""))) return true;
  const id = readAttribute(root, "id");
  const classes = (readAttribute(root, "class") ?? "").split(/\s+/).filter(Boolean);
  // The selector's last compound (what it styles) names the root: `#id`, `.class` as whole names, or the attribute.
  const names = (subject: string, sigil: string, name: string) =>
    new RegExp(`\\${sigil}${name.replace(/[^\w-]/g, "\\$&")}(?![\\w-])`).test(subject);
  const namesRoot = (selector: string) => {
    const subject = selector.split(/[\s>+~]+/).filter(Boolean).at(-1) ?? "";
    return subject.includes("[data-composition-id") || (id !== null && names(subject, "#", id)) || classes.some((c) => names(subject, ".", c));
  };
  return elements
    .filter((e) => e.name === "style")
    .flatMap((e) => listStyleRules(parseCss(readText(e))))
    .some((rule) => splitSelectorList(rule.selector).some(namesRoot) && declaresBackground(rule.declarations));
}
