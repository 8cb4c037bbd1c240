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
console.log(`render node "${name}" registered. Its key (shown once):\n\n  ${key}\n\nRun it with STUDIO_URL=<studio> NODE_KEY=${key} node render-node/main.ts`);
