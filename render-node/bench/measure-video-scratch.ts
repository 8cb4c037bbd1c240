// What a render's <video> clips put on the node's disk (render-node/README.md, "Sizing"): renders a composition
// that shows one video over its whole length (and, with --elements N, N elements of it: they share one extraction),
// sampling the node's own temp folder every 100 ms, and prints the peak, the extracted frames and their size per
// frame. The source is camera-like by default (a moving test pattern with grain that JPEG cannot drop); --noise
// makes it pure noise, the worst a frame can be.
//   node render-node/bench/measure-video-scratch.ts [--size 1920x1080] [--seconds 10] [--elements 3] [--noise]
import { readdirSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { formatBytes } from "../src/media/scratch-budget.ts";
import { ownScratchDir } from "../src/system/scratch-dirs.ts";
import { isNotFound } from "../src/system/debug-log.ts";

const { values } = parseArgs({
  options: { size: { type: "string", default: "1920x1080" }, seconds: { type: "string", default: "10" }, elements: { type: "string", default: "1" }, noise: { type: "boolean", default: false } },
});
const [width, height] = values.size.split("x").map(Number) as [number, number];
const seconds = Number(values.seconds);
const elements = Number(values.elements);
const signal = new AbortController().signal;
const binaries = await resolveBinaries();
const project = await mkdtemp(join(tmpdir(), "studio-video-scratch-"));
await mkdir(join(project, "assets"));
const source = values.noise
  ? `color=c=gray:s=${values.size}:r=30:d=${seconds},noise=alls=100:allf=t+u`
  : `testsrc2=s=${values.size}:r=30:d=${seconds},noise=alls=12:allf=t`;
await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", join(project, "assets", "clip.mp4")], signal).done;
const videos = Array.from({ length: elements }, (_, i) =>
  `<video src="assets/clip.mp4" muted data-start="0" data-duration="${seconds}" data-track-index="${i + 1}" style="position:absolute;left:0;top:0;width:${width}px;height:${height}px;opacity:${1 / (i + 1)}"></video>`).join("\n  ");
await writeFile(join(project, "index.html"), `<!doctype html>
<html><head><meta charset="utf-8"><script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<style>html, body { margin: 0; width: ${width}px; height: ${height}px; overflow: hidden; background: #000; }
[data-composition-id="v"] { position: relative; width: ${width}px; height: ${height}px; }</style></head>
<body><div data-composition-id="v" data-start="0" data-duration="${seconds}" data-width="${width}" data-height="${height}">
  ${videos}
</div>
<script>window.__timelines = { v: gsap.timeline({ paused: true }).to({}, { duration: ${seconds} }) };</script></body></html>`);

/** Bytes of every file under `dir` (0 when it is gone). */
function bytesUnder(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch (error) {
    if (isNotFound(error)) return 0; // the folder is gone: nothing under it
    throw error;
  }
  for (const name of names) {
    try {
      const info = statSync(join(dir, name));
      if (info.isFile()) total += info.size;
    } catch (error) {
      // Removed between the listing and the stat: it takes no room any more.
      if (!isNotFound(error)) throw error;
    }
  }
  return total;
}

const scratch = await ownScratchDir();
let peak = 0;
let peakFrames = 0;
const sampler = setInterval(() => {
  const bytes = bytesUnder(scratch);
  if (bytes > peak) peak = bytes;
  const frames = readdirSync(scratch).filter((n) => n.startsWith("render-")).map((n) => bytesUnder(join(scratch, n, "video-frames")));
  peakFrames = Math.max(peakFrames, ...frames, 0);
}, 100);
const lines: string[] = [];
const started = performance.now();
await renderProject({
  projectDir: project, outputPath: join(project, "out.mp4"), format: "mp4", quality: "standard", concurrency: 2, signal, onLine: (line) => lines.push(line),
});
clearInterval(sampler);
const extracted = lines.filter((line) => line.startsWith("extracted "));
const frames = extracted.reduce((sum, line) => sum + Number(/^extracted (\d+)/.exec(line)?.[1] ?? 0), 0);
console.log(`${values.size}, ${seconds} s at 30 fps, ${elements} element(s) of one ${values.noise ? "noise" : "camera-like"} clip; load ${loadavg()[0]!.toFixed(1)}`);
console.log(extracted.join("\n"));
console.log(`video frames, peak: ${formatBytes(peakFrames)} (${frames} frames, ${(peakFrames / Math.max(1, frames) / 1e6).toFixed(3)} MB a frame)`);
console.log(`temp folder, peak (frames, chunks, output beside them; the project is outside it here): ${formatBytes(peak)}`);
console.log(`render: ${((performance.now() - started) / 1000).toFixed(1)} s; ${lines.find((line) => line.startsWith("timeline:")) ?? ""}`);
await rm(project, { recursive: true, force: true });
