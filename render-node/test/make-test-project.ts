// Writes a small real project: a GSAP-animated root, a sub-composition starting mid-video, and a sine-wave track.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runTool } from "../src/system/run-tool.ts";

export const CANVAS = { width: 320, height: 180 };

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";

// Root: red 40x40 box at top 20, x from 0 to 200 over the whole duration (linear).
// Sub-composition "sub" (starts at `subStart`, lasts 1 s) in a host at top 100: green dot at top 20, x 0→200 over 1 s.
export function indexHtml(duration: number, subStart: number, extraHead = ""): string {
  return `<!doctype html>
<html><head><meta charset="utf-8">
${extraHead}
<script src="${GSAP}"></script>
<style>
html, body { margin: 0; width: ${CANVAS.width}px; height: ${CANVAS.height}px; overflow: hidden; background: #000; }
[data-composition-id="main"] { position: relative; width: ${CANVAS.width}px; height: ${CANVAS.height}px; background: #000; }
[data-composition-id="main"] #box { position: absolute; left: 0; top: 20px; width: 40px; height: 40px; background: #ff0000; }
#subhost { position: absolute; left: 0; top: 100px; width: ${CANVAS.width}px; height: 80px; }
</style></head>
<body>
<div data-composition-id="main" data-start="0" data-duration="${duration}" data-width="${CANVAS.width}" data-height="${CANVAS.height}">
  <div id="box"></div>
  <div id="subhost" data-composition-id="sub" data-composition-src="compositions/sub.html" data-start="${subStart}" data-duration="1" data-track-index="1" data-width="${CANVAS.width}" data-height="${CANVAS.height}"></div>
  <audio src="assets/tone.wav" data-start="0.5" data-duration="1" data-track-index="2" data-volume="0.8"></audio>
</div>
<script>
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true });
  tl.fromTo("#box", { x: 0 }, { x: 200, duration: ${duration}, ease: "none" });
  window.__timelines["main"] = tl;
</script>
</body></html>
`;
}

export const SUB_HTML = `<template id="sub-template">
<div data-composition-id="sub" data-width="${CANVAS.width}" data-height="${CANVAS.height}">
  <div class="dot"></div>
  <style>
    [data-composition-id="sub"] .dot { position: absolute; left: 0; top: 20px; width: 40px; height: 40px; background: #00ff00; }
  </style>
  <script src="${GSAP}"></script>
  <script>
    window.__timelines = window.__timelines || {};
    const subTl = gsap.timeline({ paused: true });
    subTl.fromTo('[data-composition-id="sub"] .dot', { x: 0 }, { x: 200, duration: 1, ease: "none" });
    window.__timelines["sub"] = subTl;
  </script>
</div>
</template>
`;

/** A project directory with index.html, compositions/sub.html and assets/tone.wav. */
export async function makeTestProject(ffmpeg: string, options: { duration?: number; subStart?: number; extraHead?: string } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-project-"));
  await mkdir(join(dir, "compositions"));
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), indexHtml(options.duration ?? 2, options.subStart ?? 1, options.extraHead ?? ""));
  await writeFile(join(dir, "compositions", "sub.html"), SUB_HTML);
  await runTool(ffmpeg, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=48000", join(dir, "assets", "tone.wav")], new AbortController().signal).done;
  return dir;
}
