// A tiny composition for batch tests: the box page (box-page.ts, 320x180: the 1920x1080 starter it was made from
// cost most of the batch files' time in its renders) with a declared colour variable (`swatch`, default black)
// painting a 160 px square at the top left, above the box, so a row's variables can be read back as a pixel of its
// file (at 100, 100).
import { boxPage } from "./box-page.ts";

export const SWATCH_CANVAS = { width: 320, height: 180 };

export function swatchComposition(compositionId: string): string {
  const html = boxPage(compositionId, 1)
    .replace("<html><head>", `<html data-composition-variables='[{"id":"swatch","type":"color","label":"Swatch","default":"#000000"}]'><head>`)
    .replace('<div id="box"></div>', '<div style="position: absolute; left: 0; top: 0; width: 160px; height: 160px; z-index: 9; background: var(--swatch, #000)"></div><div id="box"></div>');
  // The box page's markup changed under these replacements: fail here rather than render a composition without a swatch.
  if (!html.includes("var(--swatch") || !html.includes("data-composition-variables")) throw new Error("the box page no longer has the markup swatchComposition edits");
  return html;
}
