// What the render cost model (core/render/cost-model.ts) reads of a composition file before any node opens it: the
// root's declared size, length and rate, and the media and libraries that make a frame dearer. One parse serves
// both, for the Worker's quote. Pure.
import { listElements, parseHtml, readAttribute } from "../html/parse-html.ts";
import { findRootElement } from "./find-root-element.ts";
import { isShaderTransitionsUrl } from "./match-shader-transitions-url.ts";
import { readRootSize, type RootSize } from "./size-limits.ts";

export interface CompositionCostFacts {
  size: RootSize;
  videoClips: number;
  audioClips: number;
  shaderTransitions: boolean;
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
    shaderTransitions: elements.some((e) => e.name === "script" && isShaderTransitionsUrl(readAttribute(e, "src") ?? "")),
  };
}
