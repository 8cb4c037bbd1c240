// `npm run node`: one more render node on this machine, against the studio `npm start` runs (or STUDIO_URL).
// Three nodes on one machine are three `npm run node` commands. Without NODE_KEY a key is made for the node and
// registered in the local studio's D1 (the .data/ folder), printed once: reuse it with NODE_KEY=… next time, list
// and revoke it on the dashboard's Render nodes panel or with /api/node-keys. Every other variable of the node
// (NODE_ID, NODE_CONCURRENCY, HEALTH_PORT, …; render-node/README.md) passes through.
//   STUDIO_URL   default http://127.0.0.1:$PORT (PORT default 8787)
//   STUDIO_DATA  the studio's data folder, where the key is registered; default .data
//   NODE_NAME    the key's name when one is made; default local-<hostname>-<4 random characters>
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { buildPageRuntime } from "../page-runtime/build.ts";
import { newNodeKey } from "./lib/secrets.ts";
import { ROOT, wrangler } from "./lib/wrangler.ts";

const studioUrl = (process.env.STUDIO_URL || `http://127.0.0.1:${process.env.PORT || 8787}`).replace(/\/+$/, "");
const dataDir = resolve(process.env.STUDIO_DATA || join(ROOT, ".data"));

const health = await fetch(`${studioUrl}/api/health`).then((r) => r.ok, () => false);
if (!health) {
  console.error(`npm run node: no studio answers at ${studioUrl}: start it first with npm start (or set STUDIO_URL)`);
  process.exit(1);
}

// The node serves the page runtime's built scripts (rewritten only when the sources changed).
await buildPageRuntime();

let nodeKey = process.env.NODE_KEY ?? "";
if (!nodeKey) {
  const name = process.env.NODE_NAME || `local-${hostname().replace(/[^\w.-]/g, "-").slice(0, 40)}-${randomBytes(3).toString("hex")}`;
  if (!/^[\w.-]{1,60}$/.test(name)) {
    console.error("npm run node: NODE_NAME: 1 to 60 letters, digits, '.', '_' or '-'");
    process.exit(2);
  }
  const { key, sql } = newNodeKey(name);
  await wrangler(["d1", "execute", "studio", "--local", "--persist-to", join(dataDir, "wrangler"), "--command", sql]);
  nodeKey = key;
  console.log(`render node key "${name}" made for this node (shown once; NODE_KEY=${key} reuses it):\n  ${key}\n`);
}

const child = spawn(process.execPath, [join(ROOT, "render-node", "main.ts")], {
  cwd: ROOT,
  env: { ...process.env, STUDIO_URL: studioUrl, NODE_KEY: nodeKey },
  stdio: "inherit",
});
// The node handles SIGINT/SIGTERM itself (a running render is reported, then it exits); pass them on and wait.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
