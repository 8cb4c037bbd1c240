// `npm run node-key -- <name> [--remote]`: registers a render node and prints its key (shown once; only the
// hash is stored). Local by default (the .data/ folder `npm start` uses); --remote writes to the deployed D1.
import { join } from "node:path";
import { newNodeKey } from "./lib/secrets.ts";
import { ROOT, wrangler } from "./lib/wrangler.ts";

const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith("--"));
if (!name || !/^[\w.-]{1,60}$/.test(name)) {
  console.error("usage: npm run node-key -- <name> [--remote]   (name: letters, digits, '.', '_', '-')");
  process.exit(2);
}
const { key, sql } = newNodeKey(name);
const target = args.includes("--remote") ? ["--remote"] : ["--local", "--persist-to", join(ROOT, ".data", "wrangler")];
await wrangler(["d1", "execute", "studio", ...target, "--command", sql]);
const remote = args.includes("--remote");
// npm scripts run on the project's Node 24 (node_modules/.bin first on PATH); a bare `node` may be the system's
// Node 20, which cannot run .ts files, so the hints name the project's binary.
const run = remote
  ? `STUDIO_URL=<studio> NODE_KEY=${key} node_modules/.bin/node render-node/main.ts   (or the image: render-node/README.md)`
  : `NODE_KEY=${key} npm run node`;
console.log(`render node "${name}" registered. Its key (shown once):\n\n  ${key}\n\nRun a node with it: ${run}`);
