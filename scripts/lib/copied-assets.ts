// Files of the repository or its packages that the Worker's static assets carry as they are (GSAP's releases, the
// served docs' Markdown): the dashboard build emits them (dashboard/vite.config.ts); the workerd tests, which serve
// dashboard/dist without building it, place them there first (test/worker-assets.global.ts).
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";

export interface CopiedAsset {
  /** Path inside the assets folder, e.g. "vendor/gsap/3.12.5/gsap.min.js". */
  fileName: string;
  /** The file copied there. */
  source: string;
}

/** Copies them into an assets folder (what the dashboard build would emit there). */
export async function placeAssets(assetsDir: string, assets: readonly CopiedAsset[]): Promise<void> {
  for (const asset of assets) {
    const to = join(assetsDir, asset.fileName);
    await mkdir(dirname(to), { recursive: true });
    await copyFile(asset.source, to);
  }
}
