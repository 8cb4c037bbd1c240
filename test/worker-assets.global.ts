// Global setup of the workerd test projects: the Worker reads play pages' GSAP and the served docs' Markdown from its
// assets (dashboard/dist, as wrangler.toml says), which only the dashboard build fills; this places those files
// there without building it.
import { placeAssets } from "../scripts/lib/copied-assets.ts";
import { docTextAssets } from "../scripts/lib/doc-text-assets.ts";
import { gsapAssets } from "../scripts/lib/gsap-assets.ts";
import { DASHBOARD_DIST } from "../scripts/lib/dashboard.ts";

export default async function setup(): Promise<void> {
  await placeAssets(DASHBOARD_DIST, [...gsapAssets(), ...docTextAssets()]);
}
