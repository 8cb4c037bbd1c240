// The node's disk and decoding follow the composition, not what a hostile page says of its <video> clips: a clip's
// frames are what the composition can show of it, elements of one file share one extraction, folders are the
// node's own, and a job past its scratch budget fails naming it, with nothing left on disk. Real ffmpeg and
// Chromium; 320x180, one second.
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { VideoClip } from "../../page-runtime/api.ts";
import { extractVideoFrames } from "../src/media/extract-video-frames.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { ownScratchDir } from "../src/system/scratch-dirs.ts";
import { DEFAULT_STAGE_BOUNDS } from "../src/bounds/stage-bounds.ts";
import { readPixel } from "./inspect-video.ts";
import { stageTools } from "../src/system/stage-tools.ts";
import { isNotFound } from "../src/system/debug-log.ts";

const W = 320;
const H = 180;
let binaries: Binaries;
let project: string;

// Three elements of one 40 s file that each claim ten minutes, in a one-second composition: blue for its first
// half second, then yellow. The second starts at 0.5 s, so at 0.73 s it shows its blue while the others are yellow.
const html = `<!doctype html>
<html><head><meta charset="utf-8">
<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<style>
html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }
[data-composition-id="long"] { position: relative; width: ${W}px; height: ${H}px; background: #000; }
video { position: absolute; top: 0; width: 100px; height: 90px; }
</style></head>
<body>
<div data-composition-id="long" data-start="0" data-duration="1" data-width="${W}" data-height="${H}">
  <video src="assets/long.mp4" muted data-start="0" data-duration="600" data-track-index="1" style="left: 0"></video>
  <video src="assets/long.mp4" muted data-start="0.5" data-duration="600" data-track-index="2" style="left: 110px"></video>
  <video src="assets/long.mp4" muted loop data-start="0" data-duration="600" data-track-index="3" style="left: 220px"></video>
</div>
<script>
  window.__timelines = window.__timelines || {};
  window.__timelines["long"] = gsap.timeline({ paused: true }).to({}, { duration: 1 });
</script>
</body></html>`;

const signal = () => new AbortController().signal;
/** Folders this file made, removed at the end (the noise clip is 38 MB). */
const made: string[] = [];
const tempDir = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await tempDir("studio-video-bounds-");
  await mkdir(join(project, "assets"));
  await writeFile(join(project, "index.html"), html);
  await runTool(binaries.ffmpeg, [
    "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:s=100x90:r=30:d=40",
    "-vf", "drawbox=x=0:y=0:w=iw:h=ih:color=yellow:t=fill:enable='gte(t,0.5)'", "-c:v", "libx264", "-pix_fmt", "yuv420p", join(project, "assets", "long.mp4"),
  ], signal()).done;
  // Noise that JPEG cannot shrink (about 45 KB a frame at 320x180): what fills a byte budget fast. One second
  // encoded, then copied over 20 s (600 frames, about 27 MB as JPEGs) without encoding again.
  await runTool(binaries.ffmpeg, [
    "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=320x180:r=30:d=1,noise=alls=100:allf=t+u",
    "-c:v", "libx264", "-preset", "ultrafast", "-crf", "10", "-pix_fmt", "yuv420p", join(project, "assets", "noise-1s.mp4"),
  ], signal()).done;
  await runTool(binaries.ffmpeg, [
    "-v", "error", "-y", "-stream_loop", "19", "-i", join(project, "assets", "noise-1s.mp4"), "-c", "copy", join(project, "assets", "noise.mp4"),
  ], signal()).done;
}, 120_000);

afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

const clipOf = (over: Partial<VideoClip>): VideoClip => ({
  index: 0, src: "http://project/assets/long.mp4", start: 0, duration: 600, mediaStart: 0, playbackRate: 1, loop: false, ...over,
});

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    if (isNotFound(error)) return []; // the folder is gone: no file left
    throw error;
  });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

it("a one-second composition with three ten-minute <video>s of one file extracts one second of it, once, and shows each element's own frame", async () => {
  const out = join(project, "out.mp4");
  const lines: string[] = [];
  await renderProject({ projectDir: project, outputPath: out, format: "mp4", quality: "draft", signal: signal(), onLine: (line) => lines.push(line) });
  const extracted = lines.filter((line) => /^extracted \d+ frames/.test(line));
  // One extraction for the three elements, 30 frames (at most 31: the window plus one), not 3 × 1200.
  expect(extracted, lines.join("\n")).toHaveLength(1);
  expect(Number(/^extracted (\d+)/.exec(extracted[0]!)![1])).toBeLessThanOrEqual(31);
  // Frame 22 (0.73 s): the first and the looping element 0.73 s into the file (yellow), the second 0.23 s (blue).
  const isBlue = ([r, , b]: number[]) => b! > 150 && r! < 80;
  const isYellow = ([r, g, b]: number[]) => r! > 150 && g! > 150 && b! < 100;
  const first = await readPixel(binaries.ffmpeg, out, W, 22, 50, 45);
  const second = await readPixel(binaries.ffmpeg, out, W, 22, 160, 45);
  const looping = await readPixel(binaries.ffmpeg, out, W, 22, 270, 45);
  expect(isYellow(first), `first at 0.73 s: ${first}`).toBe(true);
  expect(isBlue(second), `second at 0.73 s: ${second}`).toBe(true);
  expect(isYellow(looping), `looping at 0.73 s: ${looping}`).toBe(true);
}, 120_000);

it("extracting three elements of one file writes one folder of at most 31 frames, whatever their data-duration", async () => {
  const dir = join(await tempDir("studio-video-bounds-dir-"), "video-frames");
  const extracted = await extractVideoFrames({
    videos: [clipOf({ index: 0 }), clipOf({ index: 1, start: 0.5 }), clipOf({ index: 2, loop: true })],
    toFile: () => join(project, "assets", "long.mp4"), dir, tools: stageTools(binaries, DEFAULT_STAGE_BOUNDS, signal()), onLine: () => {}, onFinding: () => {},
  }, { totalSeconds: 1, fpsText: "30", fps: { num: 30, den: 1 }, composition: "index.html" });
  expect(await readdir(dir)).toEqual(["0"]);
  expect(extracted.use.runs).toBe(1);
  expect(extracted.videos.map((video) => video?.folder)).toEqual([0, 0, 0]);
  const frames = await readdir(join(dir, "0"));
  expect(frames.length).toBeGreaterThanOrEqual(30);
  expect(frames.length).toBeLessThanOrEqual(31);
}, 60_000);

it("a page-reported index never names a folder: a traversal-like one writes only inside the job's frames folder", async () => {
  const job = await tempDir("studio-video-bounds-job-");
  const dir = join(job, "video-frames");
  const hostile = ["../escaped", "../../escaped-too", "/tmp/escaped-abs", -1, 1e9] as unknown as number[];
  await extractVideoFrames({
    videos: hostile.map((index, i) => clipOf({ index, duration: 0.2, mediaStart: i })),
    toFile: () => join(project, "assets", "long.mp4"), dir, tools: stageTools(binaries, DEFAULT_STAGE_BOUNDS, signal()), onLine: () => {}, onFinding: () => {},
  }, { totalSeconds: 1, fpsText: "30", fps: { num: 30, den: 1 }, composition: "index.html" });
  // The job holds only its frames folder, which holds only the node's own numbered folders.
  expect(await readdir(job)).toEqual(["video-frames"]);
  expect((await readdir(dir)).sort()).toEqual(["0", "1", "2", "3", "4"]);
  expect(await readdir(tmpdir())).not.toContain("escaped-too");
  expect(await readdir("/tmp")).not.toContain("escaped-abs");
}, 60_000);

it("a job past its byte budget stops ffmpeg mid-clip, fails naming the budget, the clip and the figure, and leaves no frame", async () => {
  const dir = join(await tempDir("studio-video-bounds-budget-"), "video-frames");
  const budget = { videoFrameBytes: 1024 * 1024, videoFrames: 100_000 };
  const failure = await extractVideoFrames({
    videos: [clipOf({ src: "http://project/assets/noise.mp4", duration: null })],
    toFile: () => join(project, "assets", "noise.mp4"), budget, dir, tools: stageTools(binaries, DEFAULT_STAGE_BOUNDS, signal()), onLine: () => {}, onFinding: () => {},
  }, { totalSeconds: 20, fpsText: "30", fps: { num: 30, den: 1 }, composition: "index.html" }).then(() => null, (error: unknown) => error as Error);
  expect(failure?.message).toMatch(
    /^extracting the frames of assets\/noise\.mp4 passed this node's scratch budget of 1\.0 MiB of video frames per job \(VIDEO_FRAMES_MAX_BYTES\): \d+\.\d MiB written in \d+ frames/,
  );
  // Stopped while writing, long before the clip's 600 frames (ffmpeg is looked at every 200 ms).
  expect(Number(/in (\d+) frames/.exec(failure!.message)![1])).toBeLessThan(300);
  expect(await filesUnder(dir)).toEqual([]);
}, 60_000);

it("a render whose clips need more frames than the budget is refused before decoding, naming it, with no scratch left", async () => {
  const lines: string[] = [];
  const scratch = await ownScratchDir();
  const before = await readdir(scratch);
  const failure = await renderProject({
    projectDir: project, outputPath: join(project, "refused.mp4"), format: "mp4", quality: "draft", signal: signal(),
    scratchBudget: { videoFrameBytes: 1024 ** 3, videoFrames: 20 }, onLine: (line) => lines.push(line),
  }).then(() => null, (error: unknown) => error as Error);
  expect(failure?.message).toBe(
    "the <video> clips need 30 frames, over this node's budget of 20 video frames per job (VIDEO_FRAMES_MAX); assets/long.mp4 (shown by 3 elements) alone needs 30",
  );
  expect(lines.filter((line) => line.startsWith("extracted "))).toEqual([]);
  // The render's folder is gone when it fails; its killed browsers' profile folders follow within moments.
  const left = async () => (await readdir(scratch)).filter((name) => !before.includes(name));
  expect((await left()).filter((name) => name.startsWith("render-"))).toEqual([]);
  for (let i = 0; i < 50 && (await left()).length; i++) await new Promise((done) => setTimeout(done, 100));
  expect(await left()).toEqual([]);
}, 120_000);
