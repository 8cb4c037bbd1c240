// Frame reuse in real renders (real Chromium, real ffmpeg): every composition is rendered with reuse on and off,
// and every decoded frame of the two videos must be identical (ffmpeg framemd5). Holds that are real are reused;
// ones that only look real (opacity easing to 0.999, a video behind a still title, a CSS animation, a canvas
// drawn by requestAnimationFrame, a clip starting mid-hold, a sub-composition's own tween) are captured.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { FrameDone } from "../src/capture/render-frame-range.ts";
import { renderProject, type RenderResult } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
const W = 160;
const H = 90;
const FPS = 10;

let binaries: Binaries;
let out: string;

beforeAll(async () => {
  binaries = await resolveBinaries();
  out = await mkdtemp(join(tmpdir(), "studio-frame-reuse-"));
});

/** A root composition `duration` s long with `body` inside it and `script` after it (GSAP loaded). */
function page(duration: number, body: string, script: string, style = ""): string {
  return `<!doctype html><html><head><meta charset="utf-8"><script src="${GSAP}"></script><style>
html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }
[data-composition-id="main"] { position: relative; width: ${W}px; height: ${H}px; background: #102030; }
.title { position: absolute; left: 10px; top: 30px; width: 120px; height: 30px; background: #f0c040; }
${style}</style></head><body>
<div data-composition-id="main" data-start="0" data-duration="${duration}" data-width="${W}" data-height="${H}">${body}</div>
<script>
window.__timelines = window.__timelines || {};
const tl = gsap.timeline({ paused: true });
${script}
window.__timelines["main"] = tl;
</script></body></html>`;
}

async function project(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-reuse-project-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return dir;
}

interface Run {
  result: RenderResult;
  frames: FrameDone[];
  lines: string[];
  md5: string[];
}

/** Every decoded frame's MD5, in order. */
async function frameMd5(file: string): Promise<string[]> {
  const text = await runTool(binaries.ffmpeg, ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"], new AbortController().signal).done;
  return text.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split(",").at(-1)!.trim());
}

async function render(dir: string, name: string, frameReuse: boolean, concurrency = 1): Promise<Run> {
  const file = join(out, `${name}-${frameReuse ? "reuse" : "full"}.mp4`);
  const frames: FrameDone[] = [];
  const lines: string[] = [];
  let reportedReused = -1;
  const result = await renderProject({
    projectDir: dir, outputPath: file, fps: FPS, format: "mp4", quality: "standard", concurrency, frameReuse,
    signal: new AbortController().signal, onLine: (l) => lines.push(l), onFrame: (f) => frames.push(f),
    onProgress: (p) => (reportedReused = p.reused),
  });
  // The last progress event (always sent for the last frame) carries the count, as the render state shows it.
  expect(reportedReused).toBe(result.reusedFrames);
  expect(result.reusedFrames).toBe(frames.filter((f) => f.reused).length);
  return { result, frames, lines, md5: await frameMd5(file) };
}

/** Renders with reuse on and off; the videos must agree frame for frame. Returns the reuse run. */
async function compare(dir: string, name: string, concurrency = 1): Promise<Run> {
  const full = await render(dir, name, false, concurrency);
  const reuse = await render(dir, name, true, concurrency);
  expect(full.result.reusedFrames).toBe(0);
  expect(full.lines).toContain("frame reuse off: every frame captured");
  expect(reuse.md5.length).toBe(full.result.frames);
  // Frame for frame: the first difference is named by its index.
  const firstDifference = reuse.md5.findIndex((m, i) => m !== full.md5[i]);
  expect(firstDifference, `${name}: frame ${firstDifference} differs`).toBe(-1);
  expect(reuse.lines).toContain(`frames reused: ${reuse.result.reusedFrames} of ${reuse.result.frames} (provably identical to the frame before, not captured again)`);
  return reuse;
}

const reusedAt = (run: Run) => run.frames.filter((f) => f.reused).map((f) => f.index).sort((a, b) => a - b);
/** Frames inside a fixed segment (one second: FPS frames): a segment's first frame is always captured, having none before it. */
const insideSegments = (frames: FrameDone[]) => frames.filter((f) => f.index % FPS !== 0);

describe("frame reuse", () => {
  it("a real hold is reused, but never across a clip's start or end or a sub-composition's own tween", async () => {
    // 4 s at 10 fps. Title lands by 0.5 s and holds; a clip shows from 1.5 to 2.2 s; a sub-composition (host from
    // 2.5 s) tweens its dot from local 0.2 to 0.6 s (root 2.7 to 3.1 s).
    const sub = `<template><div data-composition-id="sub" data-width="${W}" data-height="${H}">
<div class="dot" style="position:absolute;left:0;top:5px;width:20px;height:20px;background:#40f080"></div>
<script src="${GSAP}"></script><script>
window.__timelines = window.__timelines || {};
const subTl = gsap.timeline({ paused: true });
subTl.fromTo('[data-composition-id="sub"] .dot', { x: 0 }, { x: 100, duration: 0.4, ease: "none" }, 0.2);
window.__timelines["sub"] = subTl;
</script></div></template>`;
    const dir = await project({
      "index.html": page(4,
        `<div class="title" id="title"></div>
<div id="clip" data-start="1.5" data-duration="0.7" style="position:absolute;left:100px;top:5px;width:40px;height:20px;background:#e04040"></div>
<div id="host" data-composition-id="sub" data-composition-src="compositions/sub.html" data-start="2.5" data-duration="1.5" style="position:absolute;left:0;top:60px;width:${W}px;height:30px"></div>`,
        `tl.fromTo("#title", { opacity: 0, x: -40 }, { opacity: 1, x: 0, duration: 0.5, ease: "power2.out" }, 0);`),
      "compositions/sub.html": sub,
    });
    const run = await compare(dir, "hold", 2);
    const reused = reusedAt(run);
    expect(run.result.frames).toBe(40);
    // The hold from 0.5 s to 1.5 s and after the clip ends: reused.
    expect(reused).toEqual(expect.arrayContaining([7, 8, 9, 11, 12, 13, 14, 17, 18, 19, 23, 24, 26, 32, 39]));
    // Never: the title's tween, the clip's first and last frame, the host's start, the dot's tween.
    for (const index of [0, 1, 2, 3, 4, 5, 15, 22, 25, 27, 28, 29, 30, 31]) expect(reused, `frame ${index}`).not.toContain(index);
    // Each fixed segment starts with a captured frame (one second each: 0, 10, 20 and 30), held or not.
    expect(reused).not.toContain(10);
    expect(reused).not.toContain(20);
  });

  it("an opacity easing to 0.999 looks still but is captured every frame", async () => {
    const dir = await project({
      "index.html": page(3, `<div class="title" id="title"></div>`, `tl.fromTo("#title", { opacity: 1 }, { opacity: 0.999, duration: 3, ease: "none" }, 0);`),
    });
    const run = await compare(dir, "opacity");
    expect(run.result.reusedFrames).toBe(0);
  });

  it("a video behind a still title is captured while it plays, reused after it ends", async () => {
    const video = join(out, "colours.mp4");
    await runTool(binaries.ffmpeg, [
      "-v", "error", "-y", "-f", "lavfi", "-i", `testsrc=size=${W}x${H}:rate=${FPS}`, "-t", "2", "-pix_fmt", "yuv420p", video,
    ], new AbortController().signal).done;
    const { readFile } = await import("node:fs/promises");
    const dir = await project({
      "index.html": page(3,
        `<video src="assets/colours.mp4" data-start="0" data-duration="2" muted style="position:absolute;left:0;top:0;width:${W}px;height:${H}px"></video>
<div class="title" id="title"></div>`, `tl.set("#title", { opacity: 1 }, 0);`),
      "assets/colours.mp4": await readFile(video),
    });
    const run = await compare(dir, "video");
    const reused = reusedAt(run);
    expect(reused.filter((i) => i < 20)).toEqual([]);
    expect(reused.length).toBeGreaterThan(5);
  });

  it("a CSS animation is never reused", async () => {
    const dir = await project({
      "index.html": page(2, `<div class="title" id="spin"></div>`, `tl.set("#spin", { y: 0 }, 0);`,
        "#spin { animation: spin 1.3s linear infinite; } @keyframes spin { to { transform: rotate(360deg); } }"),
    });
    // Chromium's clock drives a CSS animation, so two full captures differ too: only the decision is compared.
    const run = await render(dir, "css", true);
    expect(run.result.reusedFrames).toBe(0);
    expect(new Set(insideSegments(run.frames).map((f) => f.change))).toEqual(new Set(["a CSS animation or transition is running"]));
  });

  it("a canvas drawn by requestAnimationFrame is never reused", async () => {
    const dir = await project({
      "index.html": page(2, `<canvas id="c" width="${W}" height="${H}" style="position:absolute;left:0;top:0"></canvas>`,
        `tl.set({}, {}, 2);
let n = 0;
const ctx = document.getElementById("c").getContext("2d");
(function draw() { ctx.fillStyle = "#000"; ctx.fillRect(0, 0, ${W}, ${H}); ctx.fillStyle = "#fff"; ctx.fillRect((n++ * 7) % ${W}, 30, 20, 20); requestAnimationFrame(draw); })();`),
    });
    const run = await render(dir, "canvas", true);
    expect(run.result.reusedFrames).toBe(0);
    // Its own animation frame callback always waits; GSAP's ticker, also on animation frames, is not counted.
    expect(new Set(insideSegments(run.frames).map((f) => f.change))).toEqual(new Set(["an animation frame callback is waiting"]));
  });

  it("a reused frame hides no finding: a timeline call that throws mid-hold, a blocked request, a script error", async () => {
    const dir = await project({
      "index.html": page(3, `<div class="title" id="title"></div><script>new Image().src = "https://blocked.example/pixel.png"; null.boom;</script>`,
        `tl.set("#title", { opacity: 1 }, 0);
tl.call(() => { throw new Error("call broke at 1.5 s"); }, [], 1.5);`),
    });
    const full = await render(dir, "findings", false);
    const run = await render(dir, "findings", true);
    expect(run.result.reusedFrames, run.frames.map((f) => `${f.index}: ${f.change}`).join("\n")).toBeGreaterThan(20);
    const messages = (r: Run) => r.result.findings.map((f) => `${f.code}: ${f.message}`).sort();
    expect(messages(run)).toEqual(messages(full));
    expect(messages(run).join("\n")).toMatch(/call broke at 1\.5 s/);
    expect(messages(run).join("\n")).toMatch(/blocked\.example/);
    expect(messages(run).join("\n")).toMatch(/null/);
  });

  it("a strict render with reuse on still fails on a timeline call that throws mid-hold", async () => {
    const dir = await project({
      "index.html": page(2, `<div class="title" id="title"></div>`,
        `tl.set("#title", { opacity: 1 }, 0);
tl.call(() => { throw new Error("strict call broke"); }, [], 1.2);`),
    });
    const frames: FrameDone[] = [];
    await expect(renderProject({
      projectDir: dir, outputPath: join(out, "strict.mp4"), fps: FPS, format: "mp4", quality: "standard", concurrency: 1, frameReuse: true,
      strict: true, signal: new AbortController().signal, onFrame: (f) => frames.push(f),
    })).rejects.toThrow(/strict call broke/);
    expect(frames.filter((f) => f.reused).length).toBeGreaterThan(10);
  });

  it("a timer waiting to run is never reused past", async () => {
    // Chromium runs a render page's timers late (it counts as hidden), often after the last frame: every frame
    // until it ran is captured, and the one after it ran.
    const dir = await project({
      "index.html": page(2, `<div class="title" id="title"></div>`,
        `tl.set("#title", { opacity: 1 }, 0);
setTimeout(() => { document.getElementById("title").style.background = "#fff"; }, 300);`),
    });
    const run = await render(dir, "timer", true);
    const ran = run.frames.findIndex((f) => f.change === "a timer or animation frame callback ran" || f.change === "the document changed");
    const before = insideSegments(run.frames.slice(0, ran === -1 ? undefined : ran));
    expect(before.map((f) => f.change)).toEqual(before.map(() => "a timeout is waiting (300 ms)"));
    if (ran !== -1) expect(run.frames[ran]!.reused).toBe(false);
  });
});
