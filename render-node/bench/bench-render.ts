// Benchmark: a 6 s 1920x1080 30 fps composition with a sub-composition and audio, rendered at quality standard.
//   node render-node/bench/bench-render.ts [--runs N] [--screenshot] [--concurrency N]
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries } from "../src/resolve-binaries.ts";
import { runTool } from "../src/run-tool.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";

const INDEX = `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>
html, body { margin: 0; width: 1920px; height: 1080px; overflow: hidden; }
[data-composition-id="bench"] { position: relative; width: 1920px; height: 1080px; background: linear-gradient(135deg, #0f172a, #312e81); font-family: sans-serif; }
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

const INTRO = `<template id="intro-template">
<div data-composition-id="intro" data-width="1920" data-height="1080">
  <div class="bar"></div><div class="label">Sub-composition</div>
  <style>
    [data-composition-id="intro"] .bar { position: absolute; left: 0; top: 200px; width: 1920px; height: 160px; background: #fbbf24; transform-origin: left; }
    [data-composition-id="intro"] .label { position: absolute; left: 200px; top: 230px; font-size: 80px; color: #111; font-family: sans-serif; }
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

/** Writes the benchmark project; returns its directory. */
export async function makeBenchProject(ffmpeg: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-bench-"));
  await mkdir(join(dir, "compositions"));
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), INDEX);
  await writeFile(join(dir, "compositions", "intro.html"), INTRO);
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
