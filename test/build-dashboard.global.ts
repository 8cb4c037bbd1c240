// Global setup of the `node` test project: builds the dashboard once, before any test file starts a studio.
// Every `wrangler dev` these tests start serves dashboard/dist as its assets (and refuses to start without it), and
// a build inside a test file would empty the folder under the feet of studios other files are running.
import { buildDashboard } from "../scripts/lib/dashboard.ts";

export default async function setup(): Promise<void> {
  await buildDashboard();
}
