// Finds Chromium, ffmpeg and ffprobe: the node's configuration first (config/node-config.ts: CHROME_PATH, …), then the machine's packages, then binaries shipped in npm packages.
// The container image installs none of those npm packages (render-node/image-dependencies.ts): it sets the paths to
// Debian's binaries, and where neither is there the error names the variable to set.
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import { isExecutable } from "./is-file.ts";
import { logDebug } from "./debug-log.ts";

/** Where Chromium, ffmpeg and ffprobe come from; unset fields fall back to the machine's, then npm's (below). */
export interface BinaryChoice {
  chromePath?: string | undefined;
  /** "puppeteer": a Chrome headless shell from puppeteer's cache (installed there on first use) on any machine. */
  chromeSource?: "puppeteer" | undefined;
  ffmpegPath?: string | undefined;
  ffprobePath?: string | undefined;
  /** puppeteer's browser cache and a mirror of its downloads (install-headless-shell.ts). */
  headlessShell?: { cacheDir?: string | undefined; baseUrl?: string | undefined } | undefined;
}

export { isExecutable };

export interface Binaries {
  chrome: string;
  ffmpeg: string;
  ffprobe: string;
}

// Debian's /usr/bin/chromium-headless-shell is a shell script that runs this binary as its child without `exec`,
// so a death signal set on the script (child-lifetime.ts) would never reach Chromium: use the binary itself.
const DEBIAN_HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** A configured path, checked; `name` is the variable that set it, for the message. */
function configured(name: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!isExecutable(value)) throw new Error(`${name} is set to ${JSON.stringify(value)}, which is not an executable file`);
  return value;
}

const require = createRequire(import.meta.url);

// The npm fallbacks export the binary path ({ path }) from a CommonJS entry.
function npmBinary(pkg: string): string | undefined {
  try {
    const mod = require(pkg) as { path?: unknown };
    return typeof mod.path === "string" && isExecutable(mod.path) ? mod.path : undefined;
  } catch (error) {
    // Not installed here (an optional dependency): the next candidate is tried, and none found is named by the caller.
    logDebug(`npm package ${pkg} gives no binary`, error);
    return undefined;
  }
}

// @sparticuz/chromium ships a Linux x64 binary only.
export const sparticuzRunsHere = (platform: string = process.platform, arch: string = process.arch) => platform === "linux" && arch === "x64";

/** The one name a Chromium not found is told by: what to set, what to install. */
const CHROME_NOT_FOUND =
  `Chromium headless shell not found: set CHROME_PATH to one, install Debian's chromium-headless-shell (${DEBIAN_HEADLESS_SHELL}), ` +
  "or npm install @sparticuz/chromium (CHROME_SOURCE=puppeteer downloads Chrome's headless shell instead)";

// @sparticuz/chromium is left out of the container image: its absence is "not found", not a stack trace.
async function importSparticuz(): Promise<typeof import("@sparticuz/chromium").default> {
  try {
    return (await import("@sparticuz/chromium")).default;
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND") throw new Error(CHROME_NOT_FOUND, { cause: error });
    throw error;
  }
}

/**
 * Chromium headless shell: CHROME_PATH, Debian's chromium-headless-shell, @sparticuz/chromium (Linux x64, unpacked to
 * the temp dir), else (macOS, Linux arm64) a Chrome headless shell found in or installed into puppeteer's cache
 * through @puppeteer/browsers. CHROME_SOURCE=puppeteer takes that last path on any machine.
 */
export async function resolveChrome(choice: BinaryChoice = {}): Promise<string> {
  const explicit = configured("CHROME_PATH", choice.chromePath);
  if (explicit) return explicit;
  if (choice.chromeSource !== "puppeteer") {
    if (isExecutable(DEBIAN_HEADLESS_SHELL)) return DEBIAN_HEADLESS_SHELL;
    if (sparticuzRunsHere()) {
      const chromium = await importSparticuz();
      return chromium.executablePath();
    }
  }
  const { findOrInstallHeadlessShell } = await import("./install-headless-shell.ts");
  return findOrInstallHeadlessShell({ ...choice.headlessShell });
}

/** ffmpeg and ffprobe: FFMPEG_PATH/FFPROBE_PATH, the PATH (Debian's ffmpeg), then @ffmpeg-installer / @ffprobe-installer. */
export function resolveFfmpeg(choice: BinaryChoice = {}): { ffmpeg: string; ffprobe: string } {
  const ffmpeg = configured("FFMPEG_PATH", choice.ffmpegPath) ?? onPath("ffmpeg") ?? npmBinary("@ffmpeg-installer/ffmpeg");
  const ffprobe = configured("FFPROBE_PATH", choice.ffprobePath) ?? onPath("ffprobe") ?? npmBinary("@ffprobe-installer/ffprobe");
  // The npm packages are optionalDependencies: `npm ci` installs them, the image (--omit=optional) does not.
  if (!ffmpeg) throw new Error("ffmpeg not found: set FFMPEG_PATH to one, install ffmpeg (Debian's, on PATH), or npm install @ffmpeg-installer/ffmpeg");
  if (!ffprobe) throw new Error("ffprobe not found: set FFPROBE_PATH to one, install ffmpeg (Debian's, on PATH), or npm install @ffprobe-installer/ffprobe");
  return { ffmpeg, ffprobe };
}

/** All three binaries, resolved once per render. */
export async function resolveBinaries(choice: BinaryChoice = {}): Promise<Binaries> {
  return { chrome: await resolveChrome(choice), ...resolveFfmpeg(choice) };
}
