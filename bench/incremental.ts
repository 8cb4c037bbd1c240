// Incremental re-render (issue 35 point 2): after an edit confined to the end of a composition in which something
// moves in every frame, a render handed the previous render (its output and manifest) against a full render of the
// same edited files, alternating, in this process (renderProject, the node's pipeline; no Worker). Prints each
// run's wall time, the medians, the ratio, and checks the two outputs decode to the same frames.
//
//   node bench/incremental.ts [--runs 3] [--case 720p-20s|1080p-30s|all]
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadavg } from "node:os";
import { GSAP_CDN_URL } from "../core/composition/match-gsap-url.ts";
import { renderProject, type RenderResult } from "../render-node/src/render-project.ts";
import type { PreviousRender } from "../render-node/src/carry/prepare-carry.ts";
import { resolveBinaries } from "../render-node/src/system/resolve-binaries.ts";
import { runTool } from "../render-node/src/system/run-tool.ts";
import { percentile } from "./lib/measure.ts";
import { formatTimeline } from "../render-node/src/progress/render-timeline.ts";

const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

interface Case {
  name: string;
  width: number;
  height: number;
  duration: number;
  /** The edited title shows from here to the end. */
  titleFrom: number;
  goal: number;
}

const CASES: Case[] = [
  { name: "720p-20s", width: 1280, height: 720, duration: 20, titleFrom: 16, goal: 0.4 },
  { name: "1080p-30s", width: 1920, height: 1080, duration: 30, titleFrom: 25, goal: 0.3 },
];

/** Cards moving and turning in every frame over a gradient, and an end title shown only from `titleFrom`. */
function composition(c: Case, title: string): string {
  const cards = [["#f43f5e", 0.08], ["#22c55e", 0.27], ["#3b82f6", 0.46], ["#eab308", 0.65]] as const;
  const size = Math.round(c.height * 0.24);
  return `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP_CDN_URL}"></script>
<style>
html, body { margin: 0; width: ${c.width}px; height: ${c.height}px; overflow: hidden; }
#root { position: relative; width: ${c.width}px; height: ${c.height}px; background: linear-gradient(135deg, #0f172a, #312e81); font-family: sans-serif; }
.card { position: absolute; top: ${Math.round(c.height * 0.4)}px; width: ${size}px; height: ${size}px; border-radius: 24px; box-shadow: 0 30px 60px rgba(0,0,0,.4); }
.title { position: absolute; left: ${Math.round(c.width * 0.08)}px; top: ${Math.round(c.height * 0.1)}px; font-size: ${Math.round(c.height / 10)}px; font-weight: 800; color: #fff; }
</style></head><body>
<div id="root" data-composition-id="main" data-start="0" data-duration="${c.duration}" data-width="${c.width}" data-height="${c.height}">
${cards.map(([color, left]) => `  <div class="card" style="left:${Math.round(left * c.width)}px;background:${color}"></div>`).join("\n")}
  <div class="title" data-start="${c.titleFrom}" data-duration="${c.duration - c.titleFrom}">${title}</div>
</div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to(".card", { x: ${Math.round(c.width * 0.2)}, rotation: 720, duration: ${c.duration}, ease: "none" }, 0);
  tl.from(".title", { opacity: 0, y: 40, duration: 1 }, ${c.titleFrom});
  window.__timelines = window.__timelines || {};
  window.__timelines["main"] = tl;
</script>
</body></html>
`;
}

async function project(c: Case, title: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-incremental-bench-"));
  await writeFile(join(dir, "index.html"), composition(c, title));
  return dir;
}

async function render(dir: string, output: string, previous: PreviousRender | null): Promise<{ result: RenderResult; seconds: number }> {
  const began = performance.now();
  const result = await renderProject({
    projectDir: dir, outputPath: output, format: "mp4", quality: "draft", previous, signal: new AbortController().signal, onLine: () => {},
  });
  return { result, seconds: (performance.now() - began) / 1000 };
}

async function frameMd5(ffmpeg: string, file: string): Promise<string[]> {
  const text = await runTool(ffmpeg, ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"], new AbortController().signal).done;
  return text.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split(",").at(-1)!.trim());
}

const { values } = parseArgs({ options: { runs: { type: "string", default: "3" }, case: { type: "string", default: "all" } } });
const runs = Number(values.runs);
const binaries = await resolveBinaries();
const out = await mkdtemp(join(tmpdir(), "studio-incremental-out-"));
for (const c of CASES.filter((one) => values.case === "all" || one.name === values.case)) {
  const before = await project(c, "First cut");
  const after = await project(c, "Final cut");
  console.log(`${c.name}: ${c.width}x${c.height}, ${c.duration} s at 30 fps, draft; the title shown from ${c.titleFrom} s is edited`);
  const first = await render(before, join(out, `${c.name}-before.mp4`), null);
  const previous: PreviousRender = { outputPath: join(out, `${c.name}-before.mp4`), manifest: first.result.carry!.manifest };
  const full: number[] = [];
  const incremental: number[] = [];
  let carried = 0;
  let lastTimeline: RenderResult["timeline"] = [];
  for (let run = 0; run < runs; run++) {
    const a = await render(after, join(out, `${c.name}-full.mp4`), null);
    full.push(a.seconds);
    const b = await render(after, join(out, `${c.name}-incremental.mp4`), previous);
    incremental.push(b.seconds);
    carried = b.result.carry!.carriedSegments;
    lastTimeline = b.result.timeline;
    console.log(`  run ${run + 1}: full ${a.seconds.toFixed(2)} s, incremental ${b.seconds.toFixed(2)} s (${carried} segments carried), load ${loadavg()[0]!.toFixed(1)}`);
  }
  console.log(`  the last incremental render's timeline: ${formatTimeline(lastTimeline)}`);
  const [x, y] = await Promise.all([frameMd5(binaries.ffmpeg, join(out, `${c.name}-full.mp4`)), frameMd5(binaries.ffmpeg, join(out, `${c.name}-incremental.mp4`))]);
  const differing = x.filter((m, i) => m !== y[i]).length + Math.abs(x.length - y.length);
  const ratio = median(incremental) / median(full);
  console.log(`  medians: full ${median(full).toFixed(2)} s, incremental ${median(incremental).toFixed(2)} s, ratio ${ratio.toFixed(3)} (goal ${c.goal}); frames ${y.length}, ${differing} differing from the full render`);
}
