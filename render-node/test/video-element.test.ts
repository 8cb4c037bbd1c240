// A <video> in a composition shows, at every render time, the frame ffmpeg extracted for that time (never browser
// playback): a clip that is blue for 1 s then yellow for 1 s, placed at data-start 0.5 s.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { writeColourClip } from "./colour-clip.ts";
import { readPixel } from "./inspect-video.ts";

const W = 320;
const H = 180;
let binaries: Binaries;
let project: string;

const html = `<!doctype html>
<html><head><meta charset="utf-8">
<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<style>
html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }
[data-composition-id="vid"] { position: relative; width: ${W}px; height: ${H}px; background: #000; }
[data-composition-id="vid"] video { position: absolute; left: 0; top: 0; width: 160px; height: 90px; }
</style></head>
<body>
<div data-composition-id="vid" data-start="0" data-duration="2.5" data-width="${W}" data-height="${H}">
  <video src="assets/clip.mp4" muted data-start="0.5" data-duration="1.5" data-track-index="3"></video>
</div>
<script>
  window.__timelines = window.__timelines || {};
  window.__timelines["vid"] = gsap.timeline({ paused: true }).to({}, { duration: 2.5 });
</script>
</body></html>`;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await mkdtemp(join(tmpdir(), "studio-video-"));
  await mkdir(join(project, "assets"));
  await writeFile(join(project, "index.html"), html);
  await writeColourClip(binaries.ffmpeg, join(project, "assets", "clip.mp4"), ["blue", "yellow"], 1, "160x90");
});

it("shows the clip's own frame for each render time, and nothing before its data-start", async () => {
  const out = join(project, "out.mp4");
  await renderProject({ projectDir: project, outputPath: out, format: "mp4", quality: "high", signal: new AbortController().signal });
  const pixel = (frame: number) => readPixel(binaries.ffmpeg, out, W, frame, 80, 45);
  const [before, blue, yellow] = await Promise.all([pixel(7), pixel(22), pixel(52)]);
  // t = 0.23 s: the clip has not started; the canvas is black there.
  expect(Math.max(...before)).toBeLessThan(40);
  // t = 0.73 s: 0.23 s into the clip, still its blue second.
  expect(blue[2]).toBeGreaterThan(180);
  expect(blue[0]).toBeLessThan(60);
  // t = 1.73 s: 1.23 s into the clip, its yellow second.
  expect(yellow[0]).toBeGreaterThan(180);
  expect(yellow[1]).toBeGreaterThan(180);
  expect(yellow[2]).toBeLessThan(80);
});
