// Builds the dashboard's static pages into dashboard/dist (what the Worker serves as assets).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./wrangler.ts";

export async function buildDashboard(): Promise<void> {
  const dist = join(ROOT, "dashboard", "dist");
  mkdirSync(dist, { recursive: true });
  if (!existsSync(join(dist, "index.html"))) {
    writeFileSync(join(dist, "index.html"), "<!doctype html><title>Studio</title><p>Studio dashboard</p>\n");
  }
}
