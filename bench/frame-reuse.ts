// Frame reuse, before and after: a 20 s 1920x1080 30 fps composition that alternates 2.5 s of motion with a
// 2.5 s hold (half its 600 frames still), rendered with reuse off and on in alternating pairs (the machine is
// shared, so pairs and their ratio say more than one figure). Prints wall time, frames captured and reused, and
// the load average around each run, and the CPU seconds the render used (its processes').
//   node bench/frame-reuse.ts [--pairs N] [--seconds S] [--concurrency N]
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { renderProject } from "../render-node/src/render-project.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";

const { values } = parseArgs({
  options: { pairs: { type: "string", default: "2" }, seconds: { type: "string", default: "20" }, concurrency: { type: "string" } },
});
const pairs = Number(values.pairs);
const seconds = Number(values.seconds);
const concurrency = values.concurrency ? Number(values.concurrency) : undefined;

// Every 5 s block: cards move for 2.5 s, then everything holds for 2.5 s.
const blocks = Math.ceil(seconds / 5);
const tweens = Array.from({ length: blocks }, (_, b) => `
  tl.to("#c1", { x: ${(b % 2 ? -1 : 1) * 700}, rotation: "+=90", duration: 2.5, ease: "power1.inOut" }, ${b * 5})
    .to("#c2", { y: ${(b % 2 ? 1 : -1) * 200}, scale: ${b % 2 ? 1 : 1.3}, duration: 2.5 }, ${b * 5})
    .to(".title", { opacity: ${b % 2 ? 1 : 0.6}, duration: 1 }, ${b * 5});`).join("");

const html = `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>
html, body { margin: 0; width: 1920px; height: 1080px; overflow: hidden; }
[data-composition-id="holds"] { position: relative; width: 1920px; height: 1080px; background: linear-gradient(135deg, #0f172a, #312e81); font-family: sans-serif; }
.title { position: absolute; left: 160px; top: 140px; font-size: 120px; font-weight: 800; color: #fff; }
.card { position: absolute; width: 260px; height: 260px; border-radius: 32px; box-shadow: 0 30px 60px rgba(0,0,0,.4); }
</style></head>
<body>
<div data-composition-id="holds" data-start="0" data-duration="${seconds}" data-width="1920" data-height="1080">
  <div class="title">Holds and motion</div>
  <div class="card" id="c1" style="left:160px;top:420px;background:#f43f5e"></div>
  <div class="card" id="c2" style="left:820px;top:520px;background:#22c55e"></div>
</div>
<script>
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true });${tweens}
  window.__timelines["holds"] = tl;
</script>
</body></html>
`;

const dir = await mkdtemp(join(tmpdir(), "frame-reuse-bench-"));
await writeFile(join(dir, "index.html"), html);

// CPU seconds of this process's ended children (Chromium with its renderers, and ffmpeg: each browser reaps its own
// helpers, the node reaps the browser and ffmpeg), from /proc: a figure the machine's load does not inflate.
async function childCpuSeconds(): Promise<number> {
  const stat = await readFile("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the command: state is field 3, so cutime (16) and cstime (17) sit at 13 and 14 here. Ticks of 1/100 s.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

async function run(frameReuse: boolean): Promise<{ wall: number; cpu: number; frames: number; reused: number; load: string }> {
  const before = loadavg()[0]!;
  const cpuBefore = (await childCpuSeconds()) + process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6;
  const began = performance.now();
  const result = await renderProject({
    projectDir: dir, outputPath: join(dir, `out-${frameReuse}.mp4`), format: "mp4", quality: "standard", concurrency, frameReuse,
    signal: new AbortController().signal,
  });
  const wall = (performance.now() - began) / 1000;
  const cpu = (await childCpuSeconds()) + process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6 - cpuBefore;
  return { wall, cpu, frames: result.frames, reused: result.reusedFrames, load: `${before.toFixed(1)}→${loadavg()[0]!.toFixed(1)}` };
}

console.log(`frame reuse bench: ${seconds} s 1920x1080 30 fps, half the frames held; ${pairs} pairs (off, on)`);
const ratios: number[] = [];
for (let p = 0; p < pairs; p++) {
  const off = await run(false);
  const on = await run(true);
  ratios.push(off.wall / on.wall);
  for (const [name, r] of [["off", off], ["on ", on]] as const) {
    console.log(`pair ${p + 1} reuse ${name}: ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} CPU s (node, Chromium, ffmpeg), ${r.frames - r.reused} of ${r.frames} frames captured, ${r.reused} reused, load ${r.load}`);
  }
  console.log(`pair ${p + 1}: off/on wall ratio ${(off.wall / on.wall).toFixed(2)}x, CPU ratio ${(off.cpu / on.cpu).toFixed(2)}x`);
}
console.log(`ratios: ${ratios.map((r) => r.toFixed(2)).join(", ")}`);
await rm(dir, { recursive: true, force: true });
