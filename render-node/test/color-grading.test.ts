// data-color-grading as HyperFrames renders it (real Chromium, real ffmpeg): a picture graded by its adjustments, by a
// .cube LUT and by part of its intensity, an intensity a timeline animates, a <video>'s every frame graded, the rest
// of the page untouched, and what the studio leaves out (a preset's vignette) said as a feature-unsupported finding.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { readPixel } from "./inspect-video.ts";
import type { Finding } from "../../core/protocol/finding.ts";

const W = 200;
const H = 90;
let binaries: Binaries;
let output = "";
const findings: Finding[] = [];

/** A 2x2x2 LUT that inverts every channel: trilinear between its corners, so c maps exactly to 1 - c. */
const INVERT_CUBE = `TITLE "invert"\nLUT_3D_SIZE 2\n${[0, 1].flatMap((b) => [0, 1].flatMap((g) => [0, 1].map((r) => `${1 - r} ${1 - g} ${1 - b}`))).join("\n")}\n`;

beforeAll(async () => {
  binaries = await resolveBinaries();
  const project = await mkdtemp(join(tmpdir(), "studio-color-grading-"));
  const signal = new AbortController().signal;
  await mkdir(join(project, "luts"));
  await writeFile(join(project, "luts", "invert.cube"), INVERT_CUBE);
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x204080:s=40x40", "-frames:v", "1", join(project, "flat.png")], signal).done;
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x404040:s=200x46:d=1", "-pix_fmt", "yuv420p", join(project, "grey.mp4")], signal).done;
  const img = (id: string, left: number, grading: string) => `<img id="${id}" src="flat.png" style="position: absolute; left: ${left}px; top: 0; width: 40px; height: 40px"${grading ? ` data-color-grading='${grading}'` : ""}>`;
  await writeFile(join(project, "index.html"), `<!doctype html><html><head><style>html, body { margin: 0; width: ${W}px; height: ${H}px; background: #000; }</style></head>
<body><div data-composition-id="main" data-start="0" data-duration="0.5" data-width="${W}" data-height="${H}" style="position: relative; width: ${W}px; height: ${H}px">
${img("lut", 0, `{"lut":{"src":"luts/invert.cube","intensity":1}}`)}
${img("bright", 40, `{"adjust":{"exposure":1}}`)}
${img("half", 80, `{"intensity":0.5,"adjust":{"exposure":1}}`)}
${img("plain", 120, "")}
<img id="reveal" src="flat.png" style="position: absolute; left: 160px; top: 0; width: 40px; height: 40px; --hf-color-grading-intensity: 0" data-color-grading='{"adjust":{"exposure":1}}'>
<video id="clip" src="grey.mp4" muted data-start="0" data-duration="0.5" data-track-index="1" style="position: absolute; left: 0; top: 44px; width: 200px; height: 46px"
  data-color-grading='{"preset":"night-lift","intensity":1,"adjust":{"exposure":1,"contrast":0,"highlights":0,"shadows":0,"blacks":0,"saturation":0}}'></video>
</div><script>
  // The skill's reveal: a paused timeline animates the grade's intensity from 0 to 1 over the render.
  const reveal = document.getElementById("reveal");
  window.__timelines = { main: { duration: () => 0.5, seek(t) { reveal.style.setProperty("--hf-color-grading-intensity", String(Math.min(1, t * 2))); }, pause() {} } };
</script></body></html>`);
  output = join(project, "out.mp4");
  const result = await renderProject({ projectDir: project, outputPath: output, format: "mp4", quality: "high", concurrency: 1, signal });
  findings.push(...result.findings);
}, 120_000);

// The H.264 round trip moves these colours by up to 5 levels (the ungraded #204080 decodes as 29,62,127); a grade
// left out misses by 30 or more.
const near = (actual: number[], expected: number[]) => actual.forEach((value, i) => expect(Math.abs(value - expected[i]!), `${actual} vs ${expected}`).toBeLessThanOrEqual(6));

it("grades a picture through its LUT, its exposure and half its intensity; an ungraded one keeps its colour", async () => {
  const at = (x: number) => readPixel(binaries.ffmpeg, output, W, 3, x, 20);
  near(await at(20), [223, 191, 127]);
  // Exposure +1 doubles each value (clamped at 255); at intensity 0.5, halfway from the original.
  near(await at(60), [64, 128, 255]);
  near(await at(100), [48, 96, 192]);
  near(await at(140), [32, 64, 128]);
});

it("follows a timeline's animated --hf-color-grading-intensity, frame by frame", async () => {
  const at = (frame: number) => readPixel(binaries.ffmpeg, output, W, frame, 180, 20);
  near(await at(0), [32, 64, 128]);
  // Frame 7 is 0.233 s: intensity 0.467 of the way to exposure +1's (64, 128, 255).
  near(await at(7), [47, 94, 187]);
  near(await at(14), [62, 124, 247]);
});

it("grades every frame of a video", async () => {
  for (const frame of [0, 10]) near(await readPixel(binaries.ffmpeg, output, W, frame, 80, 70), [128, 128, 128]);
});

it("says what it leaves out: the preset's vignette", () => {
  expect(findings.filter((f) => f.code === "feature-unsupported").map((f) => f.message)).toEqual([
    expect.stringMatching(/^data-color-grading on video#clip: the night-lift preset's look beyond its colour \(its vignette\) is not rendered by the studio/),
  ]);
});
