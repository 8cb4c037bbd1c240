// Runs a wrangler command in front of the operator (output as it comes, prompts answerable): the remote steps of a
// deploy. wrangler.ts's runner collects the output instead and answers no prompt (CI=true).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { quietEnv, ROOT } from "./wrangler.ts";

const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

/** Runs `wrangler args` on the operator's terminal; rejects naming the command when it fails. */
export function wranglerLive(args: string[]): Promise<void> {
  // Interactive unless the caller really is CI: `d1 migrations apply` then asks before it changes the database.
  const { CI: _ci, ...interactive } = quietEnv();
  const env = process.env.CI === undefined ? interactive : quietEnv();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env, stdio: "inherit" });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`wrangler ${args.join(" ")} failed (exit ${code})`))));
  });
}
