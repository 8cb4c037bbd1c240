// Global setup of the workerd test project: the Worker serves play pages' GSAP from its assets (dashboard/dist, as
// wrangler.toml says), which only the dashboard build fills; this places the GSAP files there without building it.
import { placeGsapAssets } from "../scripts/lib/gsap-assets.ts";
import { DASHBOARD_DIST } from "../scripts/lib/dashboard.ts";

export default async function setup(): Promise<void> {
  await placeGsapAssets(DASHBOARD_DIST);
}
