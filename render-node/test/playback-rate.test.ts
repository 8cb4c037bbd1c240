// data-playback-rate: a <video> shows, and an <audio> sounds, r seconds of its file per second of the timeline, the
// sound at its own pitch; a farm segment extracts the very frames a whole render does.
import { mkdir, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { beforeAll, expect, it } from "vitest";
import { extractVideoFrames } from "../src/media/extract-video-frames.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { DEFAULT_STAGE_BOUNDS } from "../src/bounds/stage-bounds.ts";
import { writeColourClip } from "./colour-clip.ts";
import { audioRms, readPixel } from "./inspect-video.ts";
import { stageTools } from "../src/system/stage-tools.ts";

const W = 320;
const H = 180;
let binaries: Binaries;
let project: string;

// A 3 s clip (blue, yellow, red, a second each) at twice its speed from 0 s, and a tone of 2 s (then 2 s of
// silence) at twice its speed: the picture turns yellow at 0.5 s and red at 1 s, the tone stops at 1 s.
const html = `<!doctype html>
<html><head><meta charset="utf-8">
<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<style>
html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }
[data-composition-id="rate"] { position: relative; width: ${W}px; height: ${H}px; background: #000; }
[data-composition-id="rate"] video { position: absolute; left: 0; top: 0; width: 160px; height: 90px; }
</style></head>
<body>
<div data-composition-id="rate" data-start="0" data-duration="2" data-width="${W}" data-height="${H}">
  <video src="assets/clip.mp4" muted data-start="0" data-duration="1.5" data-playback-rate="2" data-track-index="1"></video>
  <audio src="assets/tone.wav" data-start="0" data-playback-rate="2" data-track-index="2"></audio>
</div>
<script>
  window.__timelines = window.__timelines || {};
  window.__timelines["rate"] = gsap.timeline({ paused: true }).to({}, { duration: 2 });
</script>
</body></html>`;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await mkdtemp(join(tmpdir(), "studio-rate-"));
  await mkdir(join(project, "assets"));
  await writeFile(join(project, "index.html"), html);
  const signal = new AbortController().signal;
  await writeColourClip(binaries.ffmpeg, join(project, "assets", "clip.mp4"), ["blue", "yellow", "red"], 1, "160x90");
  await runTool(binaries.ffmpeg, [
    "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2:sample_rate=44100", "-af", "apad=whole_len=176400", join(project, "assets", "tone.wav"),
  ], signal).done;
}, 60_000);

/** Zero crossings per second of the render's audio between two times (mono, 8 kHz): twice the tone's frequency. */
async function crossingsPerSecond(file: string, from: number, to: number): Promise<number> {
  const pcm = `${file}.tone.pcm`;
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-i", file, "-vn", "-ac", "1", "-ar", "8000", "-f", "s16le", pcm], new AbortController().signal).done;
  const bytes = readFileSync(pcm);
  let crossings = 0;
  for (let i = Math.floor(from * 8000) + 1; i < Math.floor(to * 8000); i++) {
    if ((bytes.readInt16LE((i - 1) * 2) < 0) !== (bytes.readInt16LE(i * 2) < 0)) crossings++;
  }
  return crossings / (to - from);
}

it("plays a video and an audio clip at their data-playback-rate, the sound at its own pitch", async () => {
  const out = join(project, "out.mp4");
  await renderProject({ projectDir: project, outputPath: out, format: "mp4", quality: "high", signal: new AbortController().signal });
  const pixel = (frame: number) => readPixel(binaries.ffmpeg, out, W, frame, 80, 45);
  // t = 0.23 s is 0.47 s of the file (blue); 0.73 s is 1.47 s (yellow); 1.23 s is 2.47 s (red). At normal speed
  // they would be blue, blue and yellow.
  const [blue, yellow, red] = await Promise.all([pixel(7), pixel(22), pixel(37)]);
  expect(blue[2]).toBeGreaterThan(180);
  expect(blue[0]).toBeLessThan(60);
  expect(yellow[0]).toBeGreaterThan(180);
  expect(yellow[1]).toBeGreaterThan(180);
  expect(red[0]).toBeGreaterThan(180);
  expect(red[1]).toBeLessThan(80);
  // The 2 s tone (lavfi's sine: RMS 0.088) sounds for 1 s, still at 440 Hz (880 zero crossings a second), not an
  // octave up.
  expect(await audioRms(binaries.ffmpeg, out, 0.1, 0.9)).toBeGreaterThan(0.06);
  expect(await audioRms(binaries.ffmpeg, out, 1.15, 1.9)).toBeLessThan(0.01);
  const crossings = await crossingsPerSecond(out, 0.2, 0.8);
  expect(crossings).toBeGreaterThan(840);
  expect(crossings).toBeLessThan(920);
}, 120_000);

it("extracts a segment's frames of a sped-up clip exactly as the whole render does", async () => {
  const base = {
    videos: [{ index: 0, src: "http://project/assets/clip.mp4", start: 0, duration: 1.5, mediaStart: 0.2, playbackRate: 2, loop: false }],
    toFile: () => join(project, "assets", "clip.mp4"),
    tools: stageTools(binaries, DEFAULT_STAGE_BOUNDS, new AbortController().signal), onLine: () => {}, onFinding: () => {},
  };
  const shown = { totalSeconds: 2, fpsText: "30", fps: { num: 30, den: 1 }, composition: "index.html" };
  const whole = join(project, "whole");
  const part = join(project, "part");
  await extractVideoFrames({ ...base, dir: whole }, shown);
  await extractVideoFrames({ ...base, dir: part }, { ...shown, window: { from: 1, to: 1.4 } });
  const names = (await readdir(join(part, "0"))).sort();
  // Timeline 1 to 1.4 s at rate 2 is 2 to 2.8 s from the in-point (the file's 2.2 to 3 s): frames 61 to 85, numbered
  // on the file's clock (extracted at speed 1; the page picks frame floor(2 × 30 × t) + 1). The 3 s file has no
  // frame at its 3 s mark: 61 to 84, the page holding 84.
  expect(names).toEqual(Array.from({ length: 24 }, (_, i) => `0000${61 + i}.jpg`));
  for (const name of names) expect(await readFile(join(part, "0", name)), name).toEqual(await readFile(join(whole, "0", name)));
  // Frame 61 (timeline 1 s) is the file's 2.2 s: red; frame 25 (0.4 s) its 1 s: yellow, where normal speed shows blue.
  const colour = (frame: string) => readPixel(binaries.ffmpeg, join(whole, "0", frame), 160, 0, 80, 45);
  const [yellow, red] = await Promise.all([colour("000025.jpg"), colour("000061.jpg")]);
  expect(yellow[0]).toBeGreaterThan(180);
  expect(yellow[1]).toBeGreaterThan(180);
  expect(red[0]).toBeGreaterThan(180);
  expect(red[1]).toBeLessThan(80);
}, 120_000);
