// Project files that are a library the node answers with its own, as it answers the library's CDN URL
// (intercept-requests.ts): HyperFrames' shader-transition library copied into the project (a file such as
// `vendor/hyper-shader.global.js`, or its build pasted into an inline <script>), recognised by its content
// (core/composition/recognise-shader-library.ts), becomes our HyperShader. Used by the render's project server and
// the preview server alike.
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { HYPER_SHADER_PAGE_SCRIPT } from "../../../core/composition/hyper-shader-page-script.ts";
import { isShaderTransitionsLibrary, replaceInlineShaderLibraries } from "../../../core/composition/recognise-shader-library.ts";

/** Larger scripts are not read for the signature: every known build is under 1 MB (0.8.41: 254 KB). */
const MAX_LIBRARY_BYTES = 4 * 1024 * 1024;

/** The body to serve in place of the project file at `path` when it is a known library, else null (serve it). */
export async function answerKnownLibraryFile(path: string, size: number): Promise<string | null> {
  if (extname(path).toLowerCase() !== ".js" || size > MAX_LIBRARY_BYTES) return null;
  return isShaderTransitionsLibrary(await readFile(path, "utf8")) ? HYPER_SHADER_PAGE_SCRIPT : null;
}

/** A page's HTML with each inline copy of a known library replaced by ours. */
export function replaceKnownInlineLibraries(html: string): string {
  // The library's text is long; most pages do not name it at all, and are returned without a parse.
  if (!html.includes("HyperShader")) return html;
  return replaceInlineShaderLibraries(html, HYPER_SHADER_PAGE_SCRIPT).html;
}
