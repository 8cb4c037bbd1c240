// The GSAP files the Worker's assets carry (core/composition/gsap-assets.ts): each shipped release's core file, read
// from its npm alias. The dashboard build emits them (dashboard/vite.config.ts); the workerd tests, which serve
// dashboard/dist without building it, place them there first (test/worker-assets.global.ts).
import { copyFile, mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { GSAP_ASSET_FILES, GSAP_ASSETS_PATH } from "../../core/composition/gsap-assets.ts";
import { gsapPackageName, SHIPPED_GSAP_VERSIONS } from "../../core/composition/gsap-versions.ts";

export interface GsapAsset {
  /** Path inside the assets folder, e.g. "vendor/gsap/3.12.5/gsap.min.js". */
  fileName: string;
  /** The installed file. */
  source: string;
}

export function gsapAssets(): GsapAsset[] {
  const require = createRequire(import.meta.url);
  return SHIPPED_GSAP_VERSIONS.flatMap((version) => {
    const dist = join(dirname(require.resolve(`${gsapPackageName(version)}/package.json`)), "dist");
    return GSAP_ASSET_FILES.map((file) => ({ fileName: `${GSAP_ASSETS_PATH.slice(1)}/${version}/${file}`, source: join(dist, file) }));
  });
}

/** Copies them into an assets folder (what the dashboard build would emit there). */
export async function placeGsapAssets(assetsDir: string): Promise<void> {
  for (const asset of gsapAssets()) {
    const to = join(assetsDir, asset.fileName);
    await mkdir(dirname(to), { recursive: true });
    await copyFile(asset.source, to);
  }
}
