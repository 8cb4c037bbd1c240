// `npm run node-key -- <name> [--remote --env <name>]`: registers a render node and prints its key (shown once; only
// the hash is stored). Local by default (the .data/ folder `npm start` uses); --remote writes to the D1 database of
// the deployed environment --env names (`wrangler d1 execute DB --remote --env <name>`), the one its Worker reads.
import { join } from "node:path";
import { parseArgs } from "node:util";
import { newNodeKey } from "./lib/secrets.ts";
import { ROOT, wrangler } from "./lib/wrangler.ts";
import { wranglerEnvironments } from "./lib/worker-bundle.ts";
import { wranglerLive } from "./lib/wrangler-live.ts";

const USAGE =
  "usage: npm run node-key -- <name> [--remote --env <name>]   (name: letters, digits, '.', '_', '-'; --env: the deployed wrangler.toml environment, e.g. production)";

/** Prints a message and the usage line, then exits 2 (nothing registered). */
function usageError(message: string): never {
  console.error(`npm run node-key: ${message}\n${USAGE}`);
  process.exit(2);
}

let parsed: { name: string | undefined; remote: boolean; env: string | undefined };
try {
  const { values, positionals } = parseArgs({
    options: { remote: { type: "boolean" }, env: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 1) usageError(`one name, not ${positionals.length}`);
  parsed = { name: positionals[0], remote: values.remote ?? false, env: values.env };
} catch (error) {
  usageError((error as Error).message);
}
const { name, remote, env } = parsed;
if (!name || !/^[\w.-]{1,60}$/.test(name)) usageError("a node name is required");
// Without --env, wrangler would pick the top level's database (a placeholder id), not the deployed studio's.
if (remote && !env) usageError("--remote needs --env <name>: the environment whose D1 database the deployed Worker reads");
if (env && !remote) usageError("--env applies to --remote (without it the key goes to the local studio's .data/ folder)");
if (env && !(await wranglerEnvironments()).includes(env)) usageError(`wrangler.toml has no [env.${env}]`);

const { key, sql } = newNodeKey(name);
try {
  // Remote: the environment's binding (DB), so the database is whichever one [env.<name>] names; run in front of
  // the operator, who may have to sign in to Cloudflare (`npx wrangler login`).
  if (remote) await wranglerLive(["d1", "execute", "DB", "--remote", "--env", env!, "--command", sql]);
  else await wrangler(["d1", "execute", "studio", "--local", "--persist-to", join(ROOT, ".data", "wrangler"), "--command", sql]);
} catch (error) {
  console.error(`npm run node-key: the key was not registered: ${(error as Error).message}`);
  process.exit(1);
}
// npm scripts run on the project's Node 24 (node_modules/.bin first on PATH); a bare `node` may be the system's
// Node 20, which cannot run .ts files, so the hints name the project's binary.
const run = remote
  ? `STUDIO_URL=<studio> NODE_KEY=${key} node_modules/.bin/node render-node/main.ts   (or the image: render-node/README.md)`
  : `NODE_KEY=${key} npm run node`;
console.log(`render node "${name}" registered${remote ? ` in [env.${env}]'s D1 database` : ""}. Its key (shown once):\n\n  ${key}\n\nRun a node with it: ${run}`);
if (remote) {
  console.log(
    `For the Cloudflare Containers' key, store it as their secret instead (paste it at the prompt):\n` +
      `  npx wrangler secret put CONTAINER_NODE_KEY --env ${env}`,
  );
}
