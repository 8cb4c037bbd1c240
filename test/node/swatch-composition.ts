// A tiny composition for batch tests: the starter with a declared colour variable (`swatch`, default black) painting
// a 200 px square at the top left, so a row's variables can be read back as a pixel of its file.
import { starterComposition } from "../../core/composition/starter.ts";

export function swatchComposition(compositionId: string): string {
  const html = starterComposition({ compositionId, title: "Swatch", duration: 1 })
    .replace('<html lang="en">', `<html lang="en" data-composition-variables='[{"id":"swatch","type":"color","label":"Swatch","default":"#000000"}]'>`)
    .replace(/(<div id="root"[^>]*>)/, '$1\n  <div style="position: absolute; left: 0; top: 0; width: 200px; height: 200px; z-index: 9; background: var(--swatch, #000)"></div>');
  // The starter's markup changed under these replacements: fail here rather than render a composition without a swatch.
  if (!html.includes("var(--swatch") || !html.includes("data-composition-variables")) throw new Error("the starter no longer has the markup swatchComposition edits");
  return html;
}
