// The scripts a play page loads (from the content origin's /_studio/), bundled into the Worker as text
// (wrangler.toml [[rules]] type "Text"), so the page works with no CDN: the page runtime and player as built by
// page-runtime/build.ts (the same files the render node serves) and our HyperShader. GSAP comes from the assets
// (gsap-files.ts).
import player from "../../page-runtime/dist/studio-player.js";
import runtime from "../../page-runtime/dist/studio-runtime.js";
import { HYPER_SHADER_PAGE_SCRIPT } from "../../core/composition/hyper-shader-page-script.ts";

export const PAGE_SCRIPTS: Record<string, string> = {
  "runtime.js": runtime,
  "player.js": player,
  // Our HyperShader, for compositions that load HyperFrames' shader-transition library from a CDN.
  "hyper-shader.js": HYPER_SHADER_PAGE_SCRIPT,
};
