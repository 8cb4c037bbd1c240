// Benchmark: a 6 s 1920x1080 30 fps composition with a sub-composition and audio, rendered at quality standard.
//   node render-node/bench/bench-render.ts [--runs N] [--screenshot] [--concurrency N]
import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";

const GSAP_CDN = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
// Project-relative copy of the same file, for renderers without CDN interception (HyperFrames). Both index.html and
// the sub-composition use this path: sub-compositions are inlined into index.html, so it resolves against index.html.
const GSAP_LOCAL = "assets/gsap.min.js";

// With project fonts: one regular and one bold face from files in assets/, so every renderer draws the same glyphs
// (HyperFrames maps the generic sans-serif to its bundled Inter; Chromium alone picks a system font).
const FONT_FACES = `@font-face { font-family: "BenchSans"; font-weight: 400; src: url("assets/bench-sans.ttf"); }
@font-face { font-family: "BenchSans"; font-weight: 700 900; src: url("assets/bench-sans-bold.ttf"); }
`;

const index = (GSAP: string, FONT: string, faces: string) => `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>
${faces}html, body { margin: 0; width: 1920px; height: 1080px; overflow: hidden; }
[data-composition-id="bench"] { position: relative; width: 1920px; height: 1080px; background: linear-gradient(135deg, #0f172a, #312e81); font-family: ${FONT}; }
[data-composition-id="bench"] .title { position: absolute; left: 160px; top: 140px; font-size: 120px; font-weight: 800; color: #fff; }
[data-composition-id="bench"] .card { position: absolute; width: 260px; height: 260px; border-radius: 32px; box-shadow: 0 30px 60px rgba(0,0,0,.4); }
#intro { position: absolute; left: 0; top: 560px; width: 1920px; height: 520px; }
</style></head>
<body>
<div data-composition-id="bench" data-start="0" data-duration="6" data-width="1920" data-height="1080">
  <div class="title">Render benchmark</div>
  <div class="card" id="c1" style="left:160px;top:360px;background:#f43f5e"></div>
  <div class="card" id="c2" style="left:520px;top:360px;background:#22c55e"></div>
  <div class="card" id="c3" style="left:880px;top:360px;background:#3b82f6"></div>
  <div id="intro" data-composition-id="intro" data-composition-src="compositions/intro.html" data-start="2" data-duration="3" data-track-index="1" data-width="1920" data-height="1080"></div>
  <audio src="assets/tone.wav" data-start="0.5" data-duration="5" data-track-index="2"></audio>
</div>
<script>
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true });
  tl.from(".title", { y: -80, opacity: 0, duration: 1 })
    .to("#c1", { x: 900, rotation: 180, duration: 5, ease: "power1.inOut" }, 0)
    .to("#c2", { y: -200, scale: 1.4, duration: 3, yoyo: true, repeat: 1 }, 0)
    .to("#c3", { x: 600, opacity: 0.3, duration: 6 }, 0);
  window.__timelines["bench"] = tl;
</script>
</body></html>
`;

const intro = (GSAP: string, FONT: string) => `<template id="intro-template">
<div data-composition-id="intro" data-width="1920" data-height="1080">
  <div class="bar"></div><div class="label">Sub-composition</div>
  <style>
    [data-composition-id="intro"] .bar { position: absolute; left: 0; top: 200px; width: 1920px; height: 160px; background: #fbbf24; transform-origin: left; }
    [data-composition-id="intro"] .label { position: absolute; left: 200px; top: 230px; font-size: 80px; color: #111; font-family: ${FONT}; }
  </style>
  <script src="${GSAP}"></script>
  <script>
    window.__timelines = window.__timelines || {};
    const introTl = gsap.timeline({ paused: true });
    introTl.from('[data-composition-id="intro"] .bar', { scaleX: 0, duration: 1 })
      .from('[data-composition-id="intro"] .label', { x: -300, opacity: 0, duration: 1 }, 0.5);
    window.__timelines["intro"] = introTl;
  </script>
</div>
</template>
`;

/** Debian's DejaVu Sans (package fonts-dejavu-core), used for `fonts: "project"`. */
const DEJAVU = "/usr/share/fonts/truetype/dejavu";

/**
 * Writes the benchmark project; returns its directory. `gsap: "local"` copies gsap.min.js from the `gsap-3.14.2`
 * npm package into assets/ and loads it from there instead of the CDN URL. `fonts: "project"` copies DejaVu Sans
 * (regular and bold) into assets/ and uses it through @font-face instead of the generic sans-serif.
 */
export async function makeBenchProject(
  ffmpeg: string,
  options: { gsap?: "cdn" | "local"; fonts?: "generic" | "project" } = {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-bench-"));
  await mkdir(join(dir, "compositions"));
  await mkdir(join(dir, "assets"));
  let gsap = GSAP_CDN;
  if (options.gsap === "local") {
    const dist = join(dirname(createRequire(import.meta.url).resolve("gsap-3.14.2/package.json")), "dist");
    await copyFile(join(dist, "gsap.min.js"), join(dir, GSAP_LOCAL));
    gsap = GSAP_LOCAL;
  }
  let font = "sans-serif";
  let faces = "";
  if (options.fonts === "project") {
    try {
      await copyFile(join(DEJAVU, "DejaVuSans.ttf"), join(dir, "assets", "bench-sans.ttf"));
      await copyFile(join(DEJAVU, "DejaVuSans-Bold.ttf"), join(dir, "assets", "bench-sans-bold.ttf"));
    } catch (error) {
      throw new Error(`fonts: "project" needs DejaVu Sans in ${DEJAVU} (apt-get install fonts-dejavu-core): ${String(error)}`);
    }
    font = `"BenchSans", sans-serif`;
    faces = FONT_FACES;
  }
  await writeFile(join(dir, "index.html"), index(gsap, font, faces));
  await writeFile(join(dir, "compositions", "intro.html"), intro(gsap, font));
  await runTool(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=6", join(dir, "assets", "tone.wav")], new AbortController().signal).done;
  return dir;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { runs: { type: "string", default: "1" }, screenshot: { type: "boolean", default: false }, concurrency: { type: "string" } },
  });
  const binaries = await resolveBinaries();
  const project = await makeBenchProject(binaries.ffmpeg);
  console.log(`chrome ${binaries.chrome}\nffmpeg ${binaries.ffmpeg}`);
  for (let run = 0; run < Number(values.runs); run++) {
    const started = performance.now();
    const result = await renderProject({
      projectDir: project, outputPath: join(project, "out.mp4"), quality: "standard", format: "mp4",
      captureMode: values.screenshot ? "screenshot" : "beginFrame",
      concurrency: values.concurrency ? Number(values.concurrency) : undefined,
      signal: new AbortController().signal,
      onLine: (line) => { if (!line.startsWith("frame ")) console.log(`  ${line}`); },
    });
    const wall = (performance.now() - started) / 1000;
    console.log(`run ${run + 1}: ${result.captureMode}, ${result.frames} frames in ${wall.toFixed(2)} s = ${(result.frames / wall).toFixed(1)} frames/s`);
  }
}
