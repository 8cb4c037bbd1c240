// Where the built page scripts are (build.ts writes them; the render node serves them, the Worker bundles them as
// text). Apart from build.ts so the node imports no bundler.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const PAGE_RUNTIME_DIST = join(dirname(fileURLToPath(import.meta.url)), "dist");
export const RUNTIME_SCRIPT = join(PAGE_RUNTIME_DIST, "studio-runtime.js");
export const PLAYER_SCRIPT = join(PAGE_RUNTIME_DIST, "studio-player.js");

/** Throws a clear error when the scripts were never built (a checkout that skipped every entry that builds them). */
export function assertPageRuntimeBuilt(): void {
  for (const file of [RUNTIME_SCRIPT, PLAYER_SCRIPT]) {
    if (!existsSync(file)) throw new Error(`the page runtime is not built (${file} is missing): run \`node page-runtime/build.ts\``);
  }
}
