// Builds the dashboard's static pages into dashboard/dist (what the Worker serves as assets, and what Cloudflare
// Pages would host): a Vite build of dashboard/ with its own config.
import { join } from "node:path";
import { ROOT } from "./wrangler.ts";

export const DASHBOARD_DIR = join(ROOT, "dashboard");
export const DASHBOARD_DIST = join(DASHBOARD_DIR, "dist");

export async function buildDashboard(): Promise<void> {
  const { build } = await import("vite");
  await build({ configFile: join(DASHBOARD_DIR, "vite.config.ts"), logLevel: "warn" });
}
