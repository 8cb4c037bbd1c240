// Bundles the Worker exactly as a deploy would (`wrangler deploy --dry-run`, minified, with a source map), without
// a network or Docker: the budget check in CI and the startup benchmark share it.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildPageRuntime } from "../../page-runtime/build.ts";
import { buildDashboard, DASHBOARD_DIST } from "./dashboard.ts";
import { ROOT, wrangler } from "./wrangler.ts";

export { wrangler };

/** The Worker as uploaded: its script and text modules, raw and gzipped (each module on its own, as wrangler counts). */
export interface WorkerBundle {
  bytes: number;
  gzipBytes: number;
}

/** The environments of wrangler.toml: "" (the top level) and each `[env.NAME]`. */
export async function wranglerEnvironments(): Promise<string[]> {
  const toml = await readFile(join(ROOT, "wrangler.toml"), "utf8");
  const named = [...toml.matchAll(/^\[env\.([A-Za-z0-9_-]+)\]\s*$/gm)].map((m) => m[1]!);
  return ["", ...new Set(named)];
}

/**
 * Dry-runs a deploy of `env` into `outdir` and measures the Worker script. The dashboard is built first when missing
 * (the assets directory must exist), the page runtime always (its built scripts are text modules of the Worker);
 * containers are not built (`--containers-rollout=none`: no Docker needed).
 */
export async function bundleWorker(outdir: string, env = ""): Promise<WorkerBundle> {
  await buildPageRuntime();
  if (!existsSync(join(DASHBOARD_DIST, "index.html"))) await buildDashboard();
  await wrangler(["deploy", "--dry-run", "--outdir", outdir, "--containers-rollout=none", ...(env ? ["--env", env] : [])]);
  // The script and the modules it imports as text (the page runtime, GSAP, the docs' Markdown): what wrangler
  // uploads. The README.md wrangler writes beside them is not uploaded.
  const modules = (await readdir(outdir)).filter((name) => /\.(m?js|wasm|txt|html|md)$/.test(name) && name !== "README.md");
  let bytes = 0;
  let gzipBytes = 0;
  for (const name of modules) {
    const content = await readFile(join(outdir, name));
    bytes += content.byteLength;
    gzipBytes += gzipSync(content).byteLength;
  }
  return { bytes, gzipBytes };
}
