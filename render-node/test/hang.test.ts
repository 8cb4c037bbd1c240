// Hostile compositions that hang: each render fails once, within its stage's bound, with one message naming the
// stage (and the frame), never puppeteer's raw "Navigation timeout" or "Runtime.callFunctionOn timed out", and
// leaves no Chromium or ffmpeg behind. Real Chromium and ffmpeg, bounds shortened as FRAME_TIMEOUT_MS etc. would.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import type { StageBounds } from "../src/bounds/stage-bounds.ts";
import { StageTimeout } from "../src/bounds/deadline.ts";
import { isAlive, listDescendants, readPixel } from "./inspect-video.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
const BOUNDS: StageBounds = { pageLoadMs: 3000, timelineMs: 2000, frameMs: 2000, encodeMs: 10_000 };
/** Browser start and a first load on a busy 2-core machine, on top of the stage's own bound. */
const SLACK_MS = 15_000;

/** A 2 s (or `duration`), 30 fps composition "main" (60 frames); `script` runs in the page's body. */
function composition(script: string, duration = 2): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>html, body { margin: 0; width: 160px; height: 90px; background: #000; } #box { width: 20px; height: 20px; background: #f00; }</style>
</head><body>
<div data-composition-id="main" data-start="0" data-duration="${duration}" data-width="160" data-height="90"><div id="box"></div></div>
<script>${script}</script>
</body></html>`;
}

const projects: string[] = [];
afterAll(() => Promise.all(projects.map((dir) => rm(dir, { recursive: true, force: true }))));

async function render(html: string, strict = false) {
  const binaries = await resolveBinaries();
  const dir = await mkdtemp(join(tmpdir(), "studio-hang-"));
  projects.push(dir);
  await writeFile(join(dir, "index.html"), html);
  const before = new Set(listDescendants(process.pid));
  const lines: string[] = [];
  let peak: number[] = [];
  // Every process the render starts (browsers, their renderers, ffmpegs), sampled while it runs.
  const sample = setInterval(() => {
    peak = [...new Set([...peak, ...listDescendants(process.pid).filter((pid) => !before.has(pid))])];
  }, 200);
  const began = Date.now();
  const outcome = await renderProject({
    projectDir: dir, outputPath: join(dir, "out.mp4"), format: "mp4", quality: "draft", concurrency: 2, binaries, bounds: BOUNDS, strict,
    signal: new AbortController().signal,
    onLine: (line) => lines.push(line),
  }).then(() => null, (error: unknown) => error);
  const elapsed = Date.now() - began;
  clearInterval(sample);
  // Every browser process and ffmpeg the render started is gone within a moment of the failure.
  const deadline = Date.now() + 3000;
  while ((peak.some(isAlive) || listDescendants(process.pid).some((pid) => !before.has(pid))) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return { outcome, lines, elapsed, peak, left: listDescendants(process.pid).filter((pid) => !before.has(pid)), output: join(dir, "out.mp4") };
}

/** What a frame's message adds when its bound ran longer on the clock because the machine was loaded (paced-deadline.ts). */
const PACE = / \(at this machine's pace: [\d.]+ s on the clock, its browser got \d+% of a core\)$/;

function expectFailedOnce(result: Awaited<ReturnType<typeof render>>, message: string, boundMs: number) {
  expect(result.outcome).toBeInstanceOf(StageTimeout);
  expect((result.outcome as Error).message.replace(PACE, "")).toBe(message);
  // The message is the render's outcome, for its reporter to log once: the render's own lines do not repeat it,
  // and no raw puppeteer timeout shows anywhere.
  expect(result.lines.filter((line) => line.includes(message))).toEqual([]);
  expect(result.lines.join("\n")).not.toMatch(/Navigation timeout|Runtime\.callFunctionOn|timed out|render failed/);
  expect(result.elapsed).toBeGreaterThanOrEqual(boundMs);
  // At full pace the bound itself; on a loaded machine the bound runs at the browser's pace, ten times at the most.
  expect(result.elapsed).toBeLessThan(10 * boundMs + SLACK_MS);
  expect(result.peak.length).toBeGreaterThan(0);
  expect(result.peak.filter(isAlive)).toEqual([]);
  expect(result.left).toEqual([]);
}

it("a top-level script that never ends: fails naming the page load", async () => {
  const result = await render(composition("while (true) {}"));
  expectFailedOnce(result, "composition index.html did not finish loading in 3 s", BOUNDS.pageLoadMs);
});

it("a seek that never returns between 2 and 3 s: fails naming the frame, with two browsers both killed", async () => {
  const result = await render(composition(`
    window.__timelines = window.__timelines || {};
    const tl = gsap.timeline({ paused: true, onUpdate() { if (tl.time() >= 2 && tl.time() < 3) while (true) {} } });
    tl.to("#box", { x: 100, duration: 4, ease: "none" });
    window.__timelines["main"] = tl;`, 4));
  // 120 frames, four fixed segments of 30: the browser that takes the third (frames 61 to 90, t = 2 to 3 s) hangs at
  // once; the other renders the fourth. Only the third hangs: with the fourth hanging too, which bound ran out first
  // was a race between the two browsers (CI met frame 91 first).
  expectFailedOnce(result, "frame 61 of 120 (at 2.000 s) did not finish seeking in 2 s", BOUNDS.frameMs);
  expect(result.lines).toContain("capturing with beginFrame, 2 browsers");
});

const NEVER_REGISTERED = `
    window.__timelines = window.__timelines || {};
    const tl = gsap.timeline({ paused: true }).to("#box", { x: 100, duration: 2 });
    // registered one hour from now, which is never for a render
    setTimeout(() => { window.__timelines["main"] = tl; }, 3600000);`;

it("a timeline that never registers, strict: fails naming the timeline registration", async () => {
  const result = await render(composition(NEVER_REGISTERED), true);
  expectFailedOnce(result, 'composition "main" registered no timeline on window.__timelines["main"] in 2 s', BOUNDS.timelineMs);
});

it("a timeline that never registers, not strict: renders a still picture with one finding saying so", async () => {
  const result = await render(composition(NEVER_REGISTERED));
  expect(result.outcome).toBeNull();
  const finding = 'finding: composition "main" registered no timeline on window.__timelines["main"] in 2 s; rendered without animation (a strict render fails)';
  // Both browsers load the page; the finding is reported once.
  expect(result.lines.filter((line) => line === finding)).toHaveLength(1);
  // Nothing moved: at the last frame the box is still at x = 0 (red there, black where the animation would end).
  const { ffmpeg } = await resolveBinaries();
  expect((await readPixel(ffmpeg, result.output, 160, 59, 5, 10))[0]).toBeGreaterThan(180);
  expect((await readPixel(ffmpeg, result.output, 160, 59, 108, 10))[0]).toBeLessThan(60);
  expect(result.left).toEqual([]);
});

it("a timeline registered late but within the bound renders normally", async () => {
  const result = await render(composition(`
    window.__timelines = window.__timelines || {};
    const tl = gsap.timeline({ paused: true }).to("#box", { x: 100, duration: 2 });
    setTimeout(() => { window.__timelines["main"] = tl; }, 500);`));
  expect(result.outcome).toBeNull();
  expect(result.lines.some((line) => line.startsWith("frame 60/60"))).toBe(true);
  expect(result.left).toEqual([]);
  // The render seeked the late timeline: at the last frame the box has moved from x = 0 to about x = 100.
  const { ffmpeg } = await resolveBinaries();
  const moved = await readPixel(ffmpeg, result.output, 160, 59, 108, 10);
  expect(moved[0]).toBeGreaterThan(180);
  const start = await readPixel(ffmpeg, result.output, 160, 59, 5, 10);
  expect(start[0]).toBeLessThan(60);
});
