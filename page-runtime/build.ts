// Bundles the page runtime and the player (src/, TypeScript) into the two classic scripts pages load:
// dist/studio-runtime.js and dist/studio-player.js. esbuild's JS API, an IIFE each, so nothing but the globals the
// sources set (window.__studio, __studioPlayer, __studioRunScoped, __timelines, __hyperframes) reaches the page.
// Run by every entry that needs the files (npm start, npm run node, the test setup, deploy and check:deploy, the
// render node image): `node page-runtime/build.ts`, or buildPageRuntime() from a script. About 50 ms.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PAGE_RUNTIME_DIST, PLAYER_SCRIPT, RUNTIME_SCRIPT } from "./paths.ts";

const HERE = dirname(fileURLToPath(import.meta.url));

const ENTRIES: Array<[string, string]> = [
  [join(HERE, "src/runtime/studio-runtime.ts"), RUNTIME_SCRIPT],
  [join(HERE, "src/player/studio-player.ts"), PLAYER_SCRIPT],
];

/**
 * Builds both scripts. A file is written only when its content changed (a running `wrangler dev` watches it and
 * would reload), to a temporary name then renamed, so a reader never sees half a file.
 */
export async function buildPageRuntime(): Promise<void> {
  // esbuild is a development dependency (the image installs it alone, in its page-runtime stage): imported here only.
  const { build } = await import("esbuild");
  await mkdir(PAGE_RUNTIME_DIST, { recursive: true });
  for (const [entry, out] of ENTRIES) {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      format: "iife",
      target: "es2022",
      platform: "browser",
      write: false,
      legalComments: "none",
      logLevel: "silent",
      banner: { js: "// Built by page-runtime/build.ts from page-runtime/src: edit those, not this." },
    });
    const file = result.outputFiles[0];
    if (!file) throw new Error(`page-runtime: esbuild produced no output for ${entry}`);
    const before = await readFile(out).catch((error: unknown) => {
      // No built file yet (a fresh clone): written below. Anything else (a folder in its place, no permission)
      // fails the write below with its own error.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    });
    if (before && Buffer.compare(before, file.contents) === 0) continue;
    const temp = `${out}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, file.contents);
    await rename(temp, out);
  }
}

if (import.meta.main) {
  await buildPageRuntime();
  console.log(`page-runtime: built ${ENTRIES.map(([, out]) => out.slice(HERE.length + 1)).join(", ")}`);
}
