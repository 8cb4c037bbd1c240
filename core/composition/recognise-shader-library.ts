// Recognises HyperFrames' shader-transition library (@hyperframes/shader-transitions, `window.HyperShader`) by its
// content, however a composition loads it: a project file (`vendor/hyper-shader.global.js`, as HyperFrames' own
// regression fixture does), any file name, or the whole build pasted into an inline <script>. Its CDN URL is
// recognised apart (match-shader-transitions-url.ts). The node answers a recognised copy with our HyperShader
// (hyper-shader-page-script.ts), as it answers the CDN URL; a copy it does not recognise is reported once the page
// has loaded (render-node/src/browser/foreign-libraries.ts), never rendered as its loading screen.
//
// The signature is the library's global, not a hash of its releases: a script that defines a global `HyperShader`
// (a top-level `var HyperShader =`, as its IIFE build does, or `window.HyperShader =`) and carries the library's
// own marks (its `[HyperShader]` error prefix and its `SHADER_NAMES` export). Any release, minified or not, has
// them; a composition script that only calls `HyperShader.init(...)` defines nothing and is left alone. Pure.
import { listScriptBodies } from "../html/parse-html.ts";

const DEFINES_GLOBAL = /(?:^|[;,{}\s(])(?:var|let|const)\s+HyperShader\s*=|\b(?:window|globalThis|self)\s*(?:\.\s*HyperShader|\[\s*["']HyperShader["']\s*\])\s*=(?!=)/;
const MARKS = ["[HyperShader]", "SHADER_NAMES"];

/** True when `text` (a script's source) is a build of HyperFrames' shader-transition library. */
export function isShaderTransitionsLibrary(text: string): boolean {
  return DEFINES_GLOBAL.test(text) && MARKS.every((mark) => text.includes(mark));
}

/**
 * `html` with the body of every inline <script> that is the library replaced by `replacement` (our HyperShader);
 * `replaced` counts them. Script bodies are found by the HTML parser, so a `<script>` inside a comment or a string
 * of another script is not touched.
 */
export function replaceInlineShaderLibraries(html: string, replacement: string): { html: string; replaced: number } {
  const bodies = listScriptBodies(html).filter((body) => !body.hasSrc && isShaderTransitionsLibrary(body.text));
  let out = html;
  // From the last, so earlier offsets stay right.
  for (const body of [...bodies].reverse()) out = out.slice(0, body.start) + replacement + out.slice(body.end);
  return { html: out, replaced: bodies.length };
}
