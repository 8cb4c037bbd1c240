// The scripts a play page loads (from the content origin's /_studio/), bundled into the Worker as text
// (wrangler.toml [[rules]] type "Text"), so the page works with no CDN: the render node's runtime and player, and
// the installed GSAP 3.14.2.
import gsapMin from "gsap-3.14.2/dist/gsap.min.js";
import player from "../../render-node/page/studio-player.js";
import runtime from "../../render-node/page/studio-runtime.js";

export const PAGE_SCRIPTS: Record<string, string> = {
  "runtime.js": runtime,
  "player.js": player,
};

/** GSAP dist files the Worker can serve (the core library; plugins are not bundled). */
export const GSAP_FILES: Record<string, string> = {
  "gsap.min.js": gsapMin,
  "gsap.js": gsapMin,
};
