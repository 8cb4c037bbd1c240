// The page runtime renders HyperFrames' idioms the way HyperFrames 0.8.170 does (real Chromium, real ffmpeg):
// per-file scope for sub-composition scripts, styles and selectors; variables; the root's data-fps; clips hidden by
// visibility; mono audio at full level; script errors and unmounted sub-compositions named in findings.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import type { Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { COLOURS, probeStreams, readPixel, type Rgb } from "./inspect-video.ts";
import { SUB_HTML } from "./make-test-project.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
const W = 320;
const H = 180;
const { RED, GREEN, BLUE, BLACK, MAGENTA, CYAN, WHITE, YELLOW } = COLOURS;

let binaries: Binaries;
let outDir: string;

beforeAll(async () => {
  binaries = await resolveBinaries();
  outDir = await mkdtemp(join(tmpdir(), "studio-parity-out-"));
});

async function writeProject(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-parity-"));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

let count = 0;
async function render(projectDir: string, options: { composition?: string; fps?: string | number; strict?: boolean } = {}) {
  const file = join(outDir, `out-${count++}.mp4`);
  const lines: string[] = [];
  const result = await renderProject({
    projectDir, outputPath: file, format: "mp4", quality: "standard", concurrency: 1, ...options,
    signal: new AbortController().signal, onLine: (line) => lines.push(line),
  });
  return { file, result, lines };
}

async function expectPixel(file: string, frame: number, x: number, y: number, expected: Rgb, what: string) {
  const actual = await readPixel(binaries.ffmpeg, file, W, frame, x, y);
  const distance = Math.max(...actual.map((v, i) => Math.abs(v - expected[i]!)));
  expect(distance, `${what}: pixel (${x},${y}) of frame ${frame} is ${actual.join(",")}, expected ${expected.join(",")}`).toBeLessThan(48);
}

const page = (body: string, attrs: string, head = "") => `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }</style>${head}</head>
<body><div data-composition-id="main" data-width="${W}" data-height="${H}" ${attrs}
  style="position: relative; width: ${W}px; height: ${H}px; background: #000">
${body}
</div></body></html>`;

// Two files that both declare `const tl`, both style `.title`, both tween ".title" — as HyperFrames' docs write them.
const slide = (id: string, colour: string, distance: number) => `<!doctype html>
<html><head><style>
  .title { position: absolute; left: 0; top: 0; width: 40px; height: 40px; background: ${colour}; }
  ${id === "a" ? `#a-root` : `[data-composition-id="${id}"]`} .badge { position: absolute; left: 290px; top: 0; width: 30px; height: 40px; background: ${colour}; }
</style></head><body>
<div id="${id}-root" data-composition-id="${id}" data-width="${W}" data-height="40">
  <div class="title"></div>
  <div class="badge"></div>
  <script>
    window.__timelines = window.__timelines || {};
    const tl = gsap.timeline({ paused: true });
    tl.to(".title", { x: ${distance}, duration: 1, ease: "none" });
    window.__timelines["${id}"] = tl;
  </script>
</div></body></html>`;

// One file mounted three times; its colour is a variable with a declared default.
const SWATCH = `<!doctype html>
<html data-composition-variables='[{"id":"color","type":"color","label":"Colour","default":"#ffffff"}]'><body>
<div data-composition-id="swatch" data-width="40" data-height="40">
  <div class="swatch" style="position: absolute; left: 0; top: 0; width: 40px; height: 40px"></div>
  <script>
    const { color } = window.__hyperframes.getVariables();
    document.querySelector(".swatch").style.background = color;
  </script>
</div></body></html>`;

// A file whose root declares 100x60; its content fills whatever box the host gets.
const PANEL = `<template><div data-composition-id="panel" data-width="100" data-height="60">
  <div style="position: absolute; inset: 0; background: #0000ff"></div>
</div></template>`;
// The root's timeline, registered as bench/parity-corpus/host-size registers its own: without it each render waited
// the whole timeline bound (10 s) for it before rendering without animation.
const MAIN_TIMELINE = `<script>window.__timelines = window.__timelines || {}; window.__timelines["main"] = gsap.timeline({ paused: true });</script>`;

describe("runtime parity with HyperFrames", () => {
  it("scopes each sub-composition's scripts, styles and selectors to its host; variables per mount; root data-fps", async () => {
    const host = (style: string) => `style="position: absolute; ${style}"`;
    const project = await writeProject({
      "index.html": page(`
  <div data-composition-id="a" data-composition-src="compositions/a.html" data-start="0" data-duration="1" ${host("left: 0; top: 0; width: 320px; height: 40px")}></div>
  <div data-composition-id="b" data-composition-src="compositions/b.html" data-start="0" data-duration="1" ${host("left: 0; top: 50px; width: 320px; height: 40px")}></div>
  <div class="title" style="position: absolute; left: 0; top: 100px; width: 40px; height: 30px; background: #0000ff"></div>
  <div data-composition-id="swatch-pro" data-composition-src="compositions/swatch.html" data-variable-values='{"color":"#ff00ff"}' ${host("left: 0; top: 140px; width: 40px; height: 40px")}></div>
  <div data-composition-id="swatch-team" data-composition-src="compositions/swatch.html" data-variable-values='{"color":"#00ffff"}' ${host("left: 100px; top: 140px; width: 40px; height: 40px")}></div>
  <div data-composition-src="compositions/swatch.html" ${host("left: 200px; top: 140px; width: 40px; height: 40px")}></div>
  <script>
    window.__timelines = window.__timelines || {};
    window.__timelines["main"] = gsap.timeline({ paused: true });
  </script>`, 'data-duration="1" data-fps="24"'),
      "compositions/a.html": slide("a", "#ff0000", 200),
      "compositions/b.html": slide("b", "#00ff00", 100),
      "compositions/swatch.html": SWATCH,
    });
    const { file, result, lines } = await render(project);
    expect(lines.filter((l) => l.startsWith("finding:")), lines.join("\n")).toEqual([]);
    const video = (await probeStreams(binaries.ffprobe, file)).find((s) => s.codec_type === "video");
    expect(video).toMatchObject({ r_frame_rate: "24/1", nb_read_frames: "24" });
    expect(result.fpsText).toBe("24");
    // Frame 12 = 0.5 s: a's title (red, its own style) half way to 200, b's (green) half way to 100.
    await expectPixel(file, 12, 120, 20, RED, "a's timeline moves a's own .title");
    await expectPixel(file, 12, 20, 20, BLACK, "a's title has left x 0");
    await expectPixel(file, 12, 70, 70, GREEN, "b's timeline (also `const tl`) moves b's own .title, in b's colour");
    await expectPixel(file, 12, 120, 70, BLACK, "a's tween does not reach b's .title");
    await expectPixel(file, 12, 305, 20, RED, "a selector through the file's own root id (#a-root) applies inside its host");
    await expectPixel(file, 12, 305, 70, GREEN, "... and b's through [data-composition-id=\"b\"] inside b's");
    await expectPixel(file, 12, 20, 115, BLUE, "the root's .title is neither moved nor restyled by the sub-compositions");
    await expectPixel(file, 12, 20, 160, MAGENTA, "first mount shows its data-variable-values");
    await expectPixel(file, 12, 120, 160, CYAN, "second mount of the same file shows its own value");
    await expectPixel(file, 12, 220, 160, WHITE, "a mount with no values shows the declared default");
  }, 120_000);

  it("rational data-fps exactly, an explicit fps option wins, a hidden in-flow clip leaves the layout, root clips are layers in DOM order, mono audio at full level", async () => {
    const project = await writeProject({
      "index.html": page(`
  <div style="display: flex; flex-direction: column">
    <div data-start="0.5" data-duration="0.5" style="height: 40px; background: #ff0000"></div>
    <div style="height: 40px; background: #00ff00"></div>
  </div>
  <div data-start="0" data-duration="1" style="width: 40px; height: 40px; margin-left: 250px; background: #ffffff"></div>
  <div data-start="0" data-duration="1" data-track-index="2" style="position: absolute; left: 200px; top: 100px; width: 60px; height: 60px; background: #0000ff"></div>
  <div data-start="0" data-duration="1" data-track-index="1" style="position: absolute; left: 230px; top: 100px; width: 60px; height: 60px; background: #ffff00"></div>
  <audio src="mono.wav" data-start="0" data-duration="1"></audio>
  <script>
    window.__timelines = window.__timelines || {};
    window.__timelines["main"] = gsap.timeline({ paused: true });
  </script>`, 'data-duration="1" data-fps="30000/1001" style="display: flex; flex-direction: column"'),
    });
    // A mono sine whose level we know.
    await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2:sample_rate=48000", "-ac", "1", join(project, "mono.wav")], new AbortController().signal).done;
    const { file } = await render(project);
    const video = (await probeStreams(binaries.ffprobe, file)).find((s) => s.codec_type === "video");
    expect(video?.r_frame_rate).toBe("30000/1001");
    // Frame 0: the timed red block (in flow, inside a flex column) is hidden and, as in HyperFrames, leaves the
    // layout: the green block moves up into its place. Frame 20 (0.67 s): red shows, green back below it.
    await expectPixel(file, 0, 20, 20, GREEN, "a hidden in-flow clip leaves the layout (the next block moves up)");
    await expectPixel(file, 0, 20, 60, BLACK, "... and nothing is left below it");
    await expectPixel(file, 20, 20, 20, RED, "the clip shows inside its window");
    await expectPixel(file, 20, 20, 60, GREEN, "... and the next block is back below it");
    // A timed child of the root in normal flow is a layer at the root's top-left (its margin applies), not below the column.
    await expectPixel(file, 5, 270, 20, WHITE, "a timed root child is placed absolutely at the root's top-left");
    await expectPixel(file, 5, 270, 90, BLACK, "... not in normal flow below the column (y 80..120)");
    // Overlap x 230..260: the later element paints on top although its data-track-index is lower.
    await expectPixel(file, 5, 245, 130, YELLOW, "paint order follows the DOM, not data-track-index");
    await expectPixel(file, 5, 210, 130, BLUE, "the lower clip shows where it is not covered");
    const mean = async (path: string) => {
      const { stderr } = spawnSync(binaries.ffmpeg, ["-hide_banner", "-ss", "0.1", "-t", "0.8", "-i", path, "-af", "pan=mono|c0=c0,volumedetect", "-f", "null", "-"], { encoding: "utf8" });
      const match = /mean_volume: (-?[\d.]+) dB/.exec(stderr);
      return Number(match?.[1]);
    };
    const source = await mean(join(project, "mono.wav"));
    const mixed = await mean(file);
    expect(Number.isFinite(source) && Number.isFinite(mixed)).toBe(true);
    expect(Math.abs(mixed - source), `left channel ${mixed} dB vs source ${source} dB`).toBeLessThan(0.5);

    const explicit = await render(project, { fps: 25 });
    const explicitVideo = (await probeStreams(binaries.ffprobe, explicit.file)).find((s) => s.codec_type === "video");
    expect(explicitVideo?.r_frame_rate).toBe("25/1");
  }, 120_000);

  it("names the file of a script error and of a sub-composition that did not mount; strict fails on them", async () => {
    const project = await writeProject({
      "index.html": page(`
  <div data-composition-src="compositions/intro.html" data-start="0" data-duration="1"></div>
  <div data-composition-src="compositions/missing.html" data-start="0" data-duration="1"></div>
  <div data-composition-src="compositions/noroot.html" data-start="0" data-duration="1"></div>
  <div data-composition-src="compositions/typo.html" data-start="0" data-duration="1"></div>
  <script>
    window.__timelines = window.__timelines || {};
    window.__timelines["main"] = gsap.timeline({ paused: true });
  </script>`, 'data-duration="0.5"'),
      "compositions/intro.html": `<div data-composition-id="intro"><script>foo;</script></div>`,
      "compositions/noroot.html": `<p>no composition here</p>`,
      "compositions/typo.html": `<div data-composition-id="typo"><script>const = 1;</script></div>`,
    });
    const { lines } = await render(project);
    const findings = lines.filter((l) => l.startsWith("finding:"));
    expect(findings).toContain("finding: script error in compositions/intro.html: ReferenceError: foo is not defined");
    expect(findings).toContain("finding: sub-composition compositions/missing.html did not mount: it could not be loaded: HTTP 404");
    expect(findings).toContain("finding: sub-composition compositions/noroot.html did not mount: it has no element with data-composition-id");
    expect(findings).toContain("finding: script error in compositions/typo.html: SyntaxError: Unexpected token '='");
    // Strict fails on the cause: the missing file first (it is why its host did not mount), else the script error.
    await expect(render(project, { strict: true })).rejects.toThrow(/^missing asset: compositions\/missing\.html \(referenced by index\.html\) is not in the project; strict renders fail on it$/);
    await rm(join(project, "compositions", "typo.html"));
    await writeFile(join(project, "index.html"), (await readFile(join(project, "index.html"), "utf8")).replace(/<div data-composition-src="compositions\/(missing|noroot|typo)\.html"[^>]*><\/div>/g, ""));
    await expect(render(project, { strict: true })).rejects.toThrow(/compositions\/intro\.html: ReferenceError: foo is not defined; strict renders fail on it/);
  }, 120_000);

  it("renders a <template>-wrapped sub-composition file passed as the composition", async () => {
    const project = await writeProject({ "compositions/sub.html": SUB_HTML });
    const { file, result, lines } = await render(project, { composition: "compositions/sub.html", strict: true });
    expect(lines.filter((l) => l.startsWith("finding:"))).toEqual([]);
    expect(result.frames).toBe(30);
    // SUB_HTML: a green dot at top 20 moving x 0 → 200 over 1 s.
    await expectPixel(file, 0, 20, 40, GREEN, "the template's content is the page");
    await expectPixel(file, 15, 120, 40, GREEN, "its timeline runs");
  }, 120_000);

  it("sizes sub-composition hosts as HyperFrames does: a named host keeps its own box, an unnamed one takes its file's size", async () => {
    // Measured with HyperFrames 0.8.170 (bench/parity-corpus host-size, host-size-unnamed).
    const named = await writeProject({
      "compositions/panel.html": PANEL,
      "index.html": page(
        `<div id="p" data-composition-id="p" data-composition-src="compositions/panel.html" data-start="0" data-duration="1"></div>${MAIN_TIMELINE}`,
        `data-duration="1"`,
      ),
    });
    const one = await render(named);
    // A timed root child with no size of its own fills the root; the file's 100x60 does not size a named host.
    await expectPixel(one.file, 5, 200, 120, BLUE, "a named host with no size fills the root");
    const unnamed = await writeProject({
      "compositions/panel.html": PANEL,
      "index.html": page(
        `<div style="position: absolute; left: 0; top: 0"><div class="slot" data-composition-src="compositions/panel.html" data-start="0" data-duration="1"></div></div>${MAIN_TIMELINE}`,
        `data-duration="1"`,
        `<style>.slot { position: relative; width: 30px; height: 30px; }</style>`,
      ),
    });
    const two = await render(unnamed);
    // Nested (not a root layer), sized 30x30 by its class: HyperFrames gives it the file's 100x60 inline.
    await expectPixel(two.file, 5, 90, 50, BLUE, "an unnamed host takes its file's data-width/data-height over its class");
    await expectPixel(two.file, 5, 120, 50, BLACK, "and no more");
  }, 120_000);

  it("reports errors raised after loading (a timeline callback mid-render, a timer), naming the file; strict fails on them", async () => {
    const project = await writeProject({
      "index.html": page(`
  <div id="late" data-composition-id="late" data-composition-src="compositions/late.html" data-start="0" data-duration="1"></div>
  <div id="box" style="position: absolute; left: 0; top: 0; width: 40px; height: 40px; background: #00ff00"></div>
  <script>
    window.__timelines = window.__timelines || {};
    const tl = gsap.timeline({ paused: true });
    tl.to("#box", { x: 200, duration: 1, ease: "none" });
    window.__timelines["main"] = tl;
    setTimeout(() => { throw new Error("timer broke"); }, 0);
  </script>`, 'data-duration="1"'),
      "compositions/late.html": `<template><div data-composition-id="late" data-width="${W}" data-height="${H}"><script>
    window.__timelines = window.__timelines || {};
    const tl = gsap.timeline({ paused: true });
    tl.to({}, { duration: 1 }).call(() => { throw new Error("callback broke"); }, [], 0.5);
    window.__timelines["late"] = tl;
  </script></div></template>`,
    });
    const { file, lines } = await render(project);
    const findings = lines.filter((l) => l.startsWith("finding:"));
    expect(findings).toContain('finding: script error in compositions/late.html while seeking timeline "late": Error: callback broke');
    expect(findings.filter((f) => f.includes("callback broke"))).toHaveLength(1);
    expect(findings.some((f) => f.startsWith("finding: script error in index.html") && f.includes("timer broke"))).toBe(true);
    // The other timelines still ran: the box moved past the throwing callback's time.
    await expectPixel(file, 24, 165, 20, GREEN, "the root timeline kept seeking after the callback threw");
    await expect(render(project, { strict: true })).rejects.toThrow(/script error in .*; strict renders fail on it$/);
    // Without the timer, the callback that throws mid-render alone fails a strict render.
    const index = join(project, "index.html");
    await writeFile(index, (await readFile(index, "utf8")).replace(`setTimeout(() => { throw new Error("timer broke"); }, 0);`, ""));
    await expect(render(project, { strict: true })).rejects.toThrow(
      'script error in compositions/late.html while seeking timeline "late": Error: callback broke; strict renders fail on it',
    );
  }, 120_000);
});
