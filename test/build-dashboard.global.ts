// Global setup of the `node` and `node-shared` test projects: builds the dashboard once, before any test file starts
// a studio. Every `wrangler dev` these tests start serves dashboard/dist as its assets (and refuses to start without
// it), and a build inside a test file (or a second project's setup) would empty the folder under the feet of studios
// already running.
import { buildDashboard } from "../scripts/lib/dashboard.ts";
import { oncePerRun } from "./once-per-run.ts";

export default async function setup(): Promise<void> {
  await oncePerRun("dashboard-build", buildDashboard);
}
