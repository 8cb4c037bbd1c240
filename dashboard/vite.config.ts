// Vite build of the dashboard: one Preact bundle, and one copy of the HTML shell per top-level page so that every
// address (/project?slug=…, /ideas, /research…) is a real static file on the Worker's assets and on Pages.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { REFERENCE_UI_FILES, REFERENCE_UI_PATH } from "../core/docs/reference-ui.ts";
import { docTextAssets } from "../scripts/lib/doc-text-assets.ts";
import { gsapAssets } from "../scripts/lib/gsap-assets.ts";

/** The pages besides index.html; each is the same shell, the client router picks the view from the path. "404" is
 * the shell the Worker answers unknown addresses with (status 404); the router shows its not-found page there. */
export const PAGE_NAMES = ["project", "ideas", "idea", "research", "docs", "404"] as const;

function copyShellPerPage(): Plugin {
  return {
    name: "studio-page-shells",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const index = bundle["index.html"];
      if (!index || index.type !== "asset") return;
      for (const page of PAGE_NAMES) {
        this.emitFile({ type: "asset", fileName: `${page}.html`, source: index.source });
      }
    },
  };
}

/** Swagger UI's browser bundle and stylesheet, copied from the swagger-ui-dist package into the assets, so
 * GET /api/reference needs no CDN (worker/docs/reference-page.ts). */
function copyReferenceUi(): Plugin {
  return {
    name: "studio-reference-ui",
    apply: "build",
    generateBundle() {
      const dir = (createRequire(import.meta.url)("swagger-ui-dist/absolute-path.js") as () => string)();
      for (const file of REFERENCE_UI_FILES) {
        this.emitFile({ type: "asset", fileName: `${REFERENCE_UI_PATH.slice(1)}/${file}`, source: readFileSync(join(dir, file)) });
      }
    },
  };
}

/** Files the Worker's assets carry as they are (scripts/lib/copied-assets.ts): each shipped GSAP release's core file,
 * for the content origin's play pages (core/composition/gsap-assets.ts), and the served docs' Markdown
 * (core/docs/doc-text-files.ts): in the assets rather than the Worker's script, which has a size budget. */
function copyAssets(): Plugin {
  return {
    name: "studio-copied-assets",
    apply: "build",
    generateBundle() {
      for (const asset of [...gsapAssets(), ...docTextAssets()]) this.emitFile({ type: "asset", fileName: asset.fileName, source: readFileSync(asset.source) });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    assetsDir: "assets",
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
  },
  plugins: [copyShellPerPage(), copyReferenceUi(), copyAssets()],
});
