// Runs wrangler from this project's node_modules with telemetry and banners off (no network is reached for them).
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

export const quietEnv = (extra: Record<string, string> = {}) => ({
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  // Nothing here may reach for the network: no Request.cf lookup at start-up.
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
  ...extra,
});

/** Runs a wrangler command to completion; rejects with its output when it fails. */
export function wrangler(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env: quietEnv() });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`wrangler ${args.join(" ")} failed (${code}):\n${out}`))));
  });
}

/** Runs a wrangler command that answers on stdout (`--format json`); rejects with all its output when it fails. */
export function wranglerStdout(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env: quietEnv() });
    let stdout = "";
    let all = "";
    child.stdout.on("data", (d) => ((stdout += d), (all += d)));
    child.stderr.on("data", (d) => (all += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`wrangler ${args.join(" ")} failed (${code}):\n${all}`))));
  });
}

/** Starts `wrangler dev` in the background. */
export function spawnWranglerDev(args: string[]): ChildProcess {
  return spawn(process.execPath, [WRANGLER, "dev", "--show-interactive-dev-session=false", ...args], {
    cwd: ROOT,
    env: quietEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
}
