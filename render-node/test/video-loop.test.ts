// A <video loop> starts its file over (from its in-point, at its rate) each time it ends, as HyperFrames renders it;
// without loop it holds its last frame. A 1 s clip, blue then yellow for half a second each, in a 2.5 s composition.
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { extractVideoFrames } from "../src/media/extract-video-frames.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { DEFAULT_STAGE_BOUNDS } from "../src/bounds/stage-bounds.ts";
import { writeColourClip } from "./colour-clip.ts";
import { readPixel } from "./inspect-video.ts";
import { stageTools } from "../src/system/stage-tools.ts";

const W = 320;
const H = 180;
let binaries: Binaries;
let project: string;

// Three copies side by side: looping; looping at twice the speed; plain (holds its last frame).
const html = `<!doctype html>
<html><head><meta charset="utf-8">
<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<style>
html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }
[data-composition-id="loop"] { position: relative; width: ${W}px; height: ${H}px; background: #000; }
.clip { position: absolute; top: 0; width: 100px; height: 90px; }
</style></head>
<body>
<div data-composition-id="loop" data-start="0" data-duration="2.5" data-width="${W}" data-height="${H}">
  <video src="assets/clip.mp4" muted loop data-start="0" data-duration="2.5" data-track-index="1" class="clip" style="left: 0"></video>
  <video src="assets/clip.mp4" muted loop data-playback-rate="2" data-start="0" data-duration="2.5" data-track-index="2" class="clip" style="left: 110px"></video>
  <video src="assets/clip.mp4" muted data-start="0" data-duration="2.5" data-track-index="3" class="clip" style="left: 220px"></video>
</div>
<script>
  window.__timelines = window.__timelines || {};
  window.__timelines["loop"] = gsap.timeline({ paused: true }).to({}, { duration: 2.5 });
</script>
</body></html>`;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await mkdtemp(join(tmpdir(), "studio-loop-"));
  await mkdir(join(project, "assets"));
  await writeFile(join(project, "index.html"), html);
  await writeColourClip(binaries.ffmpeg, join(project, "assets", "clip.mp4"), ["blue", "yellow"], 0.5, "100x90");
}, 60_000);

const isBlue = ([r, , b]: number[]) => b! > 180 && r! < 60;
const isYellow = ([r, g, b]: number[]) => r! > 180 && g! > 180 && b! < 80;

it("starts a looping video's file over each cycle, at its rate; a plain one holds its last frame", async () => {
  const out = join(project, "out.mp4");
  await renderProject({ projectDir: project, outputPath: out, format: "mp4", quality: "high", signal: new AbortController().signal });
  const at = (frame: number, x: number) => readPixel(binaries.ffmpeg, out, W, frame, x, 45);
  // Frame 37 (1.23 s): the loop is 0.23 s into its second cycle (blue); the 2x loop (0.5 s cycles) 0.23 s into its
  // third, 0.47 s of the file (blue); the plain clip ended at 1 s and holds its last frame (yellow).
  // (One at a time: readPixel writes the frame to a file named by its number.)
  const [loop1, fast1, plain1] = [await at(37, 50), await at(37, 160), await at(37, 270)];
  expect(isBlue(loop1), `loop at 1.23 s: ${loop1}`).toBe(true);
  expect(isBlue(fast1), `2x loop at 1.23 s: ${fast1}`).toBe(true);
  expect(isYellow(plain1), `plain at 1.23 s: ${plain1}`).toBe(true);
  // Frame 52 (1.73 s): the loop 0.73 s into its cycle (yellow); the 2x loop 0.23 s into its fourth (0.47 s: blue).
  const [loop2, fast2] = [await at(52, 50), await at(52, 160)];
  expect(isYellow(loop2), `loop at 1.73 s: ${loop2}`).toBe(true);
  expect(isBlue(fast2), `2x loop at 1.73 s: ${fast2}`).toBe(true);
  // Frame 43 (1.43 s): the 2x loop 0.43 s into its third cycle, 0.87 s of the file (yellow).
  expect(isYellow(await at(43, 160))).toBe(true);
}, 120_000);

it("extracts a looping video's cycle only where a segment shows it, with its cycle", async () => {
  const dir = join(project, "segment");
  const extracted = await extractVideoFrames({
    videos: [{ index: 0, src: "http://project/assets/clip.mp4", start: 0, duration: 2.5, mediaStart: 0.25, playbackRate: 1, loop: true }],
    toFile: () => join(project, "assets", "clip.mp4"), dir, tools: stageTools(binaries, DEFAULT_STAGE_BOUNDS, new AbortController().signal),
    onLine: () => {}, onFinding: () => {},
  }, { totalSeconds: 2.5, fpsText: "30", fps: { num: 30, den: 1 }, window: { from: 2, to: 2.4 }, composition: "index.html" });
  // The file from 0.25 s is 0.75 s long (frames 1 to 23 of a cycle). The window, 2 to 2.4 s, is 0.5 s into the
  // third cycle to 0.15 s into the fourth: frames 16 to the cycle's end and 1 to 5, not the whole cycle.
  expect(extracted.videos[0]?.loopSeconds).toBeCloseTo(0.75, 3);
  const names = (await readdir(join(dir, "0"))).sort();
  expect(names[0]).toBe("000001.jpg");
  expect(names).toContain("000005.jpg");
  expect(names).not.toContain("000006.jpg");
  expect(names).toContain("000016.jpg");
  expect(names).not.toContain("000015.jpg");
  expect(names.length).toBeLessThanOrEqual(13);
  expect(extracted.videos[0]?.count).toBe(Number(names[names.length - 1]!.slice(0, 6)));
}, 60_000);
