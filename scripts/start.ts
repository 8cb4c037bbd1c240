// `npm start`: the studio at http://127.0.0.1:8787 — API, dashboard and one render node — on local storage in .data/.
// PORT picks another port; NO_RENDER_NODE=1 starts no render node; ADMIN_USER_IDS (comma-separated user ids) are
// the idea board's admins (README, "Local setup").
// STUDIO_NODES=containers runs render nodes as production does instead: none until work arrives, started by the
// Worker's container class (as local processes), stopped after CONTAINER_SLEEP_AFTER idle; CONTAINER_MIN_INSTANCES,
// CONTAINER_MAX_INSTANCES, CONTAINER_JOBS_PER_INSTANCE, CONTAINER_NODE_CONCURRENCY and CONTAINER_SLEEP_AFTER from
// this shell pass to the Worker.
import { join } from "node:path";
import { assertPortFree, PortInUseError } from "./lib/check-port.ts";
import { buildDashboard } from "./lib/dashboard.ts";
import { startStudio } from "./lib/local-studio.ts";
import { ROOT } from "./lib/wrangler.ts";

function fail(message: string): never {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

const portText = process.env.PORT ?? "8787";
const port = Number(portText);
if (!/^\d+$/.test(portText) || port < 1 || port > 65535) fail(`PORT must be a port number from 1 to 65535; received ${JSON.stringify(portText)}`);
// Checked before anything is built or started: a taken port is the commonest first-hour surprise.
await assertPortFree(port, "127.0.0.1").catch((error: unknown) => fail(error instanceof PortInUseError ? error.message : String(error)));
await buildDashboard();
const adminUserIds = process.env.ADMIN_USER_IDS?.trim();
const nodesMode = process.env.STUDIO_NODES ?? "process";
if (nodesMode !== "process" && nodesMode !== "containers") fail(`STUDIO_NODES must be "process" (one always-on node, the default) or "containers"; received ${JSON.stringify(nodesMode)}`);
const containerVars = ["CONTAINER_MIN_INSTANCES", "CONTAINER_MAX_INSTANCES", "CONTAINER_JOBS_PER_INSTANCE", "CONTAINER_NODE_CONCURRENCY", "CONTAINER_SLEEP_AFTER"]
  .flatMap((name) => (nodesMode === "containers" && process.env[name] ? [[name, process.env[name]!] as const] : []));
const studio = await startStudio({
  port,
  dataDir: join(ROOT, ".data"),
  renderNode: process.env.NO_RENDER_NODE !== "1",
  containers: nodesMode === "containers",
  vars: {
    ...Object.fromEntries(containerVars),
    ...(adminUserIds ? { ADMIN_USER_IDS: adminUserIds } : {}),
    // Webhooks to a local receiver are refused unless named here (worker/net/allowed-hosts.ts).
    ...(process.env.WEBHOOK_ALLOWED_HOSTS ? { WEBHOOK_ALLOWED_HOSTS: process.env.WEBHOOK_ALLOWED_HOSTS } : {}),
  },
  log: (line) => console.log(line),
}).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
console.log(`\nStudio is running at ${studio.url}\n  dashboard: ${studio.url}/\n  API docs:  ${studio.url}/api/docs\n  content:   ${studio.contentUrl}/ (play pages and share links, a separate site)\n` +
  `  render nodes: ${studio.containers ? "containers (started as work arrives, stopped when idle)" : studio.node ? "one, always running" : "none (NO_RENDER_NODE=1)"}\n  admins: ${adminUserIds || "none (set ADMIN_USER_IDS)"}\n`);
const shutdown = async () => {
  await studio.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
