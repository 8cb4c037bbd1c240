// After a composition has loaded: is a library the studio replaces running as itself? HyperFrames' shader-transition
// library is answered with our HyperShader from its CDN URL (intercept-requests.ts) and from a project file or an
// inline copy recognised by content (known-library-files.ts). A copy neither recognised (a changed build, an ES
// module import, a bundle) renders its own loading screen ("Preparing scene transitions...") on every frame, since
// the studio has no engine bridge for it: that is a finding (a strict render fails), never a silent success.
import type { Page } from "puppeteer-core";
import { makeFinding, type Finding } from "../../../core/protocol/finding.ts";

/** What the page shows of HyperFrames' own HyperShader: its global, its loading overlay, its state on window.__hf. */
export interface ForeignLibraryTraces {
  /** window.HyperShader is defined and is not the studio's (which says `studio: true`). */
  foreignGlobal: boolean;
  /** The library's loading overlay is in the document. */
  loadingOverlay: boolean;
  /** The library's own state (window.__hf.shaderTransitions, window.__hf_shader_loading) is set. */
  libraryState: boolean;
}

/** Reads the traces in the page (plain booleans: nothing the page returns is used beyond truthiness). */
export async function readForeignLibraryTraces(page: Page): Promise<ForeignLibraryTraces> {
  const raw: unknown = await page.evaluate(() => {
    const w = window as unknown as { HyperShader?: { studio?: unknown }; __hf?: { shaderTransitions?: unknown }; __hf_shader_loading?: unknown };
    const shader = w.HyperShader;
    return {
      foreignGlobal: shader !== undefined && shader !== null && shader.studio !== true,
      loadingOverlay: document.querySelector('[aria-label="Preparing scene transitions"]') !== null,
      libraryState: (w.__hf !== undefined && w.__hf !== null && w.__hf.shaderTransitions !== undefined) || w.__hf_shader_loading !== undefined,
    };
  });
  const read = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  return { foreignGlobal: read["foreignGlobal"] === true, loadingOverlay: read["loadingOverlay"] === true, libraryState: read["libraryState"] === true };
}

/** The finding for those traces, or null when the page runs no foreign copy. Pure. */
export function foreignLibraryFinding(traces: ForeignLibraryTraces, file: string): Finding | null {
  const seen = [
    traces.foreignGlobal ? "window.HyperShader is not the studio's" : null,
    traces.loadingOverlay ? 'its "Preparing scene transitions" overlay is on the page' : null,
    traces.libraryState ? "its state is on window.__hf" : null,
  ].filter((s): s is string => s !== null);
  if (seen.length === 0) return null;
  return makeFinding(
    "library-unsupported",
    file,
    `HyperFrames' shader-transition library runs in a form the studio does not recognise (${seen.join("; ")}): its transitions are not rendered and its loading screen may cover the frames`,
    { fixHint: "Load it as its docs do, <script src=\"https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions/dist/index.global.js\">, or as an unmodified copy of that file: the studio answers either with its own HyperShader" },
  );
}
