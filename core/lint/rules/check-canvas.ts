// The page itself must be exactly the canvas: html/body sized to data-width x data-height with overflow hidden,
// otherwise the captured frame crops, letterboxes or shows scrollbars.
import { parseDeclarations, listStyleRules, splitSelectorList, type CssDeclaration } from "../../css/parse-css.ts";
import { parsePixels } from "../../composition/parse-number-attribute.ts";
import { readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

interface PageDeclarations {
  html: CssDeclaration[];
  body: CssDeclaration[];
}

function targetOf(selector: string): "html" | "body" | null {
  const normalized = selector.replace(/\s*>\s*/g, " ").replace(/\s+/g, " ").trim().toLowerCase();
  if (normalized === "html" || normalized === ":root") return "html";
  if (normalized === "body" || normalized === "html body" || normalized === ":root body") return "body";
  return null;
}

function collectPageDeclarations(file: CompositionFile): PageDeclarations {
  const page: PageDeclarations = { html: [], body: [] };
  for (const sheet of file.styles) {
    for (const rule of listStyleRules(sheet.nodes)) {
      for (const selector of splitSelectorList(rule.selector)) {
        const target = targetOf(selector);
        if (target) page[target].push(...rule.declarations);
      }
    }
  }
  // Inline style attributes win over stylesheets, so they come last.
  for (const element of file.elements) {
    if (element.name !== "html" && element.name !== "body") continue;
    page[element.name].push(...parseDeclarations(readAttribute(element, "style") ?? ""));
  }
  return page;
}

function lastValue(declarations: CssDeclaration[], property: string): string | null {
  const found = declarations.filter((declaration) => declaration.property === property);
  const important = found.filter((declaration) => declaration.important);
  return (important.at(-1) ?? found.at(-1))?.value.trim().toLowerCase() ?? null;
}

/** True when a CSS length equals `pixels` on a canvas of that size (viewport units and 100% count). */
function matchesCanvas(value: string, pixels: number, viewportUnit: "vw" | "vh"): boolean {
  if (value === "100%" || value === `100${viewportUnit}`) return true;
  return parsePixels(value) === pixels;
}

function hidesOverflow(declarations: CssDeclaration[]): boolean {
  const hidden = (value: string | null): boolean => value === "hidden" || value === "clip";
  const overflow = lastValue(declarations, "overflow");
  if (overflow && overflow.split(/\s+/).every((part) => hidden(part))) return true;
  return hidden(lastValue(declarations, "overflow-x")) && hidden(lastValue(declarations, "overflow-y"));
}

export function checkCanvas(file: CompositionFile): LintFinding[] {
  // Only the entry is the page: a sub-composition is laid out inside the entry's canvas, and an <html>/<body> it
  // is wrapped in (as HyperFrames' skill writes <template> files) is dropped when it is mounted.
  if (!file.isEntry) return [];
  const width = parsePixels(file.root ? readAttribute(file.root, "data-width") : null) ?? 1920;
  const height = parsePixels(file.root ? readAttribute(file.root, "data-height") : null) ?? 1080;
  const wanted = `html, body { width: ${width}px; height: ${height}px; overflow: hidden; }`;
  const page = collectPageDeclarations(file);
  const findings: LintFinding[] = [];
  const sizes = [
    { property: "width", pixels: width, unit: "vw" as const },
    { property: "height", pixels: height, unit: "vh" as const },
  ];
  const missing: string[] = [];
  for (const { property, pixels, unit } of sizes) {
    const value = lastValue(page.body, property) ?? lastValue(page.html, property);
    if (value === null) missing.push(property);
    else if (!matchesCanvas(value, pixels, unit)) {
      findings.push(createFinding("canvas_size_mismatch", file.path, `html/body has ${property}: ${value}, but the root's data-${property} says the canvas is ${pixels}px; frames would be cropped or padded.`, {
        selector: "html, body",
        fixHint: `Use ${wanted} (or change data-width/data-height on the root to match).`,
      }));
    }
  }
  if (missing.length > 0) {
    findings.push(createFinding("canvas_size_missing", file.path, `No html/body CSS sets the canvas ${missing.join(" and ")}; the page should be exactly ${width}x${height}.`, {
      selector: "html, body",
      fixHint: `Add to a <style> in <head>: ${wanted}`,
    }));
  }
  if (!hidesOverflow([...page.html, ...page.body])) {
    findings.push(createFinding("canvas_overflow_visible", file.path, "html/body does not set overflow: hidden; content that leaves the canvas can add scrollbars to the frames.", {
      selector: "html, body",
      fixHint: `Add overflow: hidden, e.g. ${wanted}`,
    }));
  }
  return findings;
}
