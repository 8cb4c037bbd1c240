// Where the Worker's play pages get GSAP: each shipped release's core file (core/composition/gsap-versions.ts) is
// copied into the Worker's static assets by the dashboard build (dashboard/vite.config.ts), so /play serves the
// release a render would without carrying three copies of GSAP in the Worker's script (its size budget,
// scripts/check-deploy.ts). The content origin answers /_studio/gsap/<version>/<file> from there
// (worker/content/gsap-files.ts). Pure.

/** The assets folder holding `<version>/gsap.min.js`. */
export const GSAP_ASSETS_PATH = "/vendor/gsap";

/** The dist files copied per release: the core library (plugins are not served to play pages). */
export const GSAP_ASSET_FILES = ["gsap.min.js"] as const;

/**
 * The asset path of a dist file a page asks for, or null when it is not one the assets hold. gsap.js is answered
 * with the minified build (the same library).
 */
export function gsapAssetPath(version: string, file: string): string | null {
  const name = file === "gsap.js" ? "gsap.min.js" : file;
  return (GSAP_ASSET_FILES as readonly string[]).includes(name) ? `${GSAP_ASSETS_PATH}/${version}/${name}` : null;
}
