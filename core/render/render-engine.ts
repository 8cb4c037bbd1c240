// The version of what turns a project into a video, beyond the project's files and the render's options: the render
// node's code (render-node/), the page runtime every render page loads first (page-runtime/), Chromium, ffmpeg and
// the fonts the node bundles. The render cache (render-cache-key.ts) keys every render with it, so a finished render
// is reused only by the engine that made it, and the node's carry key (render-node/src/carry/carry-key.ts) too, so a
// segment is carried only from a render the same engine made. Pure; the one place to change it.

/**
 * Bump this (any new string) in the commit that changes how a render looks or sounds: capture, encode, the page
 * runtime, the node's image (its Chromium, ffmpeg, bundled fonts). Every render cached before then misses after.
 * The GSAP releases a node serves are keyed on their own (SHIPPED_GSAP_VERSIONS), so shipping one needs no bump.
 */
export const RENDER_ENGINE_VERSION = "2026-11-29.4";
