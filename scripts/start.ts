// `npm start`: the studio at http://127.0.0.1:8787 — API, dashboard and one render node — on local storage in .data/.
// PORT picks another port; NO_RENDER_NODE=1 starts no render node; ADMIN_USER_IDS (comma-separated user ids) are
// the idea board's admins (README, "Local setup").
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
const studio = await startStudio({
  port,
  dataDir: join(ROOT, ".data"),
  renderNode: process.env.NO_RENDER_NODE !== "1",
  vars: {
    ...(adminUserIds ? { ADMIN_USER_IDS: adminUserIds } : {}),
    // Webhooks to a local receiver are refused unless named here (worker/net/allowed-hosts.ts).
    ...(process.env.WEBHOOK_ALLOWED_HOSTS ? { WEBHOOK_ALLOWED_HOSTS: process.env.WEBHOOK_ALLOWED_HOSTS } : {}),
  },
  log: (line) => console.log(line),
}).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
console.log(`\nStudio is running at ${studio.url}\n  dashboard: ${studio.url}/\n  API docs:  ${studio.url}/api/docs\n  content:   ${studio.contentUrl}/ (play pages and share links, a separate site)\n` +
  `  render node: ${studio.node ? "running" : "none (NO_RENDER_NODE=1)"}\n  admins: ${adminUserIds || "none (set ADMIN_USER_IDS)"}\n`);
const shutdown = async () => {
  await studio.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
