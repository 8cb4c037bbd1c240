// The GSAP files the Worker's assets carry (core/composition/gsap-assets.ts): each shipped release's core file, read
// from its npm alias; copied there as copied-assets.ts says.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { CopiedAsset } from "./copied-assets.ts";
import { GSAP_ASSET_FILES, GSAP_ASSETS_PATH } from "../../core/composition/gsap-assets.ts";
import { gsapPackageName, SHIPPED_GSAP_VERSIONS } from "../../core/composition/gsap-versions.ts";

export function gsapAssets(): CopiedAsset[] {
  const require = createRequire(import.meta.url);
  return SHIPPED_GSAP_VERSIONS.flatMap((version) => {
    const dist = join(dirname(require.resolve(`${gsapPackageName(version)}/package.json`)), "dist");
    return GSAP_ASSET_FILES.map((file) => ({ fileName: `${GSAP_ASSETS_PATH.slice(1)}/${version}/${file}`, source: join(dist, file) }));
  });
}
