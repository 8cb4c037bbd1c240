// Vite build of the dashboard: one Preact bundle, and one copy of the HTML shell per top-level page so that every
// address (/project?slug=…, /ideas, /research…) is a real static file on the Worker's assets and on Pages.
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

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
  plugins: [copyShellPerPage()],
});
