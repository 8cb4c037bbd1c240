// `npm start`: the studio at http://127.0.0.1:8787 — API, dashboard and one render node — on local storage in .data/.
import { join } from "node:path";
import { buildDashboard } from "./lib/dashboard.ts";
import { startStudio } from "./lib/local-studio.ts";
import { ROOT } from "./lib/wrangler.ts";

const port = Number(process.env.PORT ?? 8787);
await buildDashboard();
const studio = await startStudio({
  port,
  dataDir: join(ROOT, ".data"),
  renderNode: process.env.NO_RENDER_NODE !== "1",
  log: (line) => console.log(line),
});
console.log(`\nStudio is running at ${studio.url}\n  dashboard: ${studio.url}/\n  API docs:  ${studio.url}/api/docs\n  content:   ${studio.contentUrl}/ (play pages and share links, a separate site)\n`);
const shutdown = async () => {
  await studio.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
