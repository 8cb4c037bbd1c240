// The npm packages the container image installs (render-node/Dockerfile's deps stage): those the node imports or
// reads at run time, and nothing else: not the Worker's own packages (hono's router, drizzle, the MCP SDK, …: the
// Worker is bundled by wrangler, never run from this image), not the npm-shipped Chromium and ffmpeg (the image
// has Debian's; they are optionalDependencies, left out by `--omit=optional`).
// test/node/image-files.test.ts checks that this list covers every package the node can import, every bundled font
// it can serve, and that the node renders from what the deps stage installs.
//
// Run in the deps stage after `npm ci`, as `node image-dependencies.ts`: it narrows ./package.json's dependencies to
// these, so the `npm prune` after it removes the rest (the versions stay the lockfile's: npm ci installed them).
import { readFileSync, writeFileSync } from "node:fs";

/** Package names; an entry ending in `/*` keeps every dependency of that scope. */
export const IMAGE_DEPENDENCIES: readonly string[] = [
  "@fontsource/*", // src/browser/bundled-fonts.ts serves the bundled families' woff2 files (core/fonts/font-table.ts)
  "@puppeteer/browsers", // src/system/install-headless-shell.ts, where CHROME_PATH is unset; puppeteer-core needs it anyway
  "execa", // src/system/run-tool.ts
  "gsap-3.12.5", // older GSAP releases served for CDN URLs pinned to them (core/composition/gsap-versions.ts)
  "gsap-3.13.0",
  "fflate", // src/encode/zip-png-sequence.ts: a png-sequence render's zip
  "gsap-3.14.2", // served to compositions in place of the GSAP CDN (src/browser/intercept-requests.ts, src/browser-jobs/serve-preview.ts)
  "hono", // its MIME table only (core/http/content-type.ts)
  "domhandler", // with htmlparser2: the node reads a composition's root size before any browser starts (src/plan/refuse-oversized-composition.ts)
  "htmlparser2", // core/html/parse-html.ts, for the same check
  "puppeteer-core",
  "zod", // the job protocol (core/protocol/)
];

/** Packages the node imports only as fallbacks for the binaries the image has from Debian (src/system/resolve-binaries.ts). */
export const LEFT_OUT_FALLBACKS: readonly string[] = ["@ffmpeg-installer/ffmpeg", "@ffprobe-installer/ffprobe", "@sparticuz/chromium"];

/** Whether the image installs the dependency `name`. */
export function inImage(name: string, list: readonly string[] = IMAGE_DEPENDENCIES): boolean {
  return list.some((entry) => (entry.endsWith("/*") ? name.startsWith(entry.slice(0, -1)) : name === entry));
}

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** The manifest with only the image's dependencies (no dev or optional ones). Throws for a listed name it lacks. */
export function narrowManifest<T extends Manifest>(manifest: T, list: readonly string[] = IMAGE_DEPENDENCIES): T {
  const dependencies = manifest.dependencies ?? {};
  const missing = list.filter((entry) => !Object.keys(dependencies).some((name) => inImage(name, [entry])));
  if (missing.length) throw new Error(`image-dependencies: not in package.json's dependencies: ${missing.join(", ")}`);
  const { devDependencies: _dev, optionalDependencies: _optional, ...rest } = manifest;
  return { ...rest, dependencies: Object.fromEntries(Object.entries(dependencies).filter(([name]) => inImage(name, list))) } as T;
}

if (import.meta.main) {
  const manifest = JSON.parse(readFileSync("package.json", "utf8")) as Manifest;
  const narrowed = narrowManifest(manifest);
  writeFileSync("package.json", `${JSON.stringify(narrowed, null, 2)}\n`);
  console.log(`image-dependencies: ${Object.keys(narrowed.dependencies ?? {}).length} of ${Object.keys(manifest.dependencies ?? {}).length} runtime dependencies kept`);
}
