// A style rule naming the `video` element type still styles the picture in a render, where the runtime shows the
// <video> as an <img data-studio-video> (HyperFrames keeps the <video> and draws over it, so its CSS applies there).
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { videoSelectorTwin } from "../../page-runtime/src/runtime/video-selectors.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { writeColourClip } from "./colour-clip.ts";
import { readPixel } from "./inspect-video.ts";

describe("videoSelectorTwin", () => {
  it("reads the video type selector as the swapped image, wherever it stands", () => {
    expect(videoSelectorTwin("video")).toBe("img[data-studio-video]");
    expect(videoSelectorTwin(".stage > video.hero, video:first-child")).toBe(".stage > img[data-studio-video].hero, img[data-studio-video]:first-child");
    expect(videoSelectorTwin("div:is(video, p)")).toBe("div:is(img[data-studio-video], p)");
    expect(videoSelectorTwin("#main video")).toBe("#main img[data-studio-video]");
  });
  it("leaves selectors that only look like it", () => {
    for (const selector of [".video", "#video", "video-card", "[data-video]", ".stage .video-wrap", "a.videos"]) expect(videoSelectorTwin(selector), selector).toBeNull();
  });
});

const W = 320;
const H = 180;
const html = `<!doctype html><html><head><meta charset="utf-8">
<style>
html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }
#stage { position: relative; width: ${W}px; height: ${H}px; background: #000; }
video { position: absolute; left: 200px; top: 40px; width: 100px; height: 90px; object-fit: fill; }
@media (min-width: 100px) { #stage > video.late { left: 20px; top: 100px; width: 60px; height: 60px; } }
</style></head>
<body><div id="stage" data-composition-id="sel" data-start="0" data-duration="0.5" data-width="${W}" data-height="${H}">
  <video src="assets/clip.mp4" muted data-start="0" data-duration="0.5" data-track-index="1"></video>
  <video class="late" src="assets/clip.mp4" muted data-start="0" data-duration="0.5" data-track-index="2"></video>
</div>
<script>window.__timelines = { sel: { duration: () => 0.5, seek() {}, pause() {} } };</script></body></html>`;

it("places and sizes a <video> by rules that name its element type, @media ones included", async () => {
  const binaries = await resolveBinaries();
  const project = await mkdtemp(join(tmpdir(), "studio-video-css-"));
  await mkdir(join(project, "assets"));
  await writeFile(join(project, "index.html"), html);
  await writeColourClip(binaries.ffmpeg, join(project, "assets", "clip.mp4"), ["blue"], 1, "160x90");
  const out = join(project, "out.mp4");
  await renderProject({ projectDir: project, outputPath: out, format: "mp4", quality: "high", signal: new AbortController().signal });
  const pixel = (x: number, y: number) => readPixel(binaries.ffmpeg, out, W, 3, x, y);
  // Inside the first video's box (200..300 x 40..130) and the second's (20..80 x 100..160): blue; the top-left
  // corner, where both would sit unstyled: black.
  const inFirst = await pixel(250, 85);
  const inSecond = await pixel(50, 130);
  const corner = await pixel(10, 10);
  expect(inFirst[2], `first: ${inFirst}`).toBeGreaterThan(180);
  expect(inSecond[2], `second: ${inSecond}`).toBeGreaterThan(180);
  expect(Math.max(...corner), `corner: ${corner}`).toBeLessThan(40);
}, 120_000);
