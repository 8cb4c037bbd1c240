// Assets that fail to load are never silent: an <img>, <video>, <audio>, CSS url() or @font-face src naming a
// project file that does not exist is a `finding:` line of the render log naming the missing path and the file that
// referenced it; a strict render fails on it; check reports it as missing-asset with the same words. Real Chromium.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkComposition } from "../src/browser-jobs/check-composition.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";

const INDEX = `<!doctype html>
<html><head><meta charset="utf-8">
<script src="${GSAP}"></script>
<link rel="stylesheet" href="styles/main.css">
<style>
  @font-face { font-family: "Brand"; src: url("fonts/brand.woff2") format("woff2"); font-display: block; }
  html, body { margin: 0; width: 320px; height: 180px; overflow: hidden; background: #000; }
  [data-composition-id="main"] { position: relative; width: 320px; height: 180px; }
  [data-composition-id="main"] .title { font-family: "Brand", sans-serif; color: #fff; margin: 0; }
</style></head>
<body>
<div data-composition-id="main" data-start="0" data-duration="1" data-width="320" data-height="180">
  <h1 class="title">Hi</h1>
  <img class="logo" src="assets/logo.png" alt="" width="40" height="40">
  <div class="panel"></div>
  <video src="assets/clip.mp4" muted data-start="0" data-duration="1" data-track-index="3"></video>
  <audio src="assets/voice.wav" data-start="0" data-duration="1" data-track-index="2"></audio>
</div>
<script>
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true });
  tl.from("[data-composition-id=main] .title", { opacity: 0, duration: 1 });
  window.__timelines["main"] = tl;
</script>
</body></html>
`;
// Its url() resolves against the stylesheet: styles/assets/bg.jpg, referenced by styles/main.css.
const CSS = `[data-composition-id="main"] .panel { width: 100px; height: 50px; background: url("assets/bg.jpg"); }\n`;

let binaries: Binaries;
let project: string;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await mkdtemp(join(tmpdir(), "missing-assets-"));
  await mkdir(join(project, "styles"));
  await writeFile(join(project, "index.html"), INDEX);
  await writeFile(join(project, "styles", "main.css"), CSS);
});

const EXPECTED = [
  "finding: missing asset: assets/logo.png (referenced by index.html) is not in the project",
  "finding: missing asset: styles/assets/bg.jpg (referenced by styles/main.css) is not in the project",
  "finding: missing asset: fonts/brand.woff2 (referenced by index.html) is not in the project",
];

describe("a missing project file", () => {
  it("is a finding line naming the file and who referenced it, and the render still finishes", async () => {
    const lines: string[] = [];
    const result = await renderProject({
      projectDir: project, outputPath: join(project, "out.mp4"), format: "mp4", quality: "draft", concurrency: 1,
      signal: new AbortController().signal, onLine: (line) => lines.push(line),
    });
    expect(lines).toEqual(expect.arrayContaining(EXPECTED));
    // The video and the audio track are named too (by the page's request or by the node's own look before
    // decoding), once each; the video stays blank and the track is left out of the mix instead of failing ffmpeg.
    expect(lines.filter((l) => l.startsWith("finding: missing asset: assets/clip.mp4 "))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith("finding: missing asset: assets/voice.wav "))).toHaveLength(1);
    // The same findings, as data: code, the file that referenced it, the missing path.
    for (const line of EXPECTED) expect(result.findings.map((f) => f.message)).toContain(line.slice("finding: ".length));
    expect(result.findings.find((f) => f.asset === "styles/assets/bg.jpg")).toMatchObject({ code: "missing-asset", severity: "error", file: "styles/main.css" });
    expect(result.frames).toBe(30);
  });

  it("fails a strict render with that line", async () => {
    await expect(
      renderProject({
        projectDir: project, outputPath: join(project, "strict.mp4"), format: "mp4", quality: "draft", concurrency: 1, strict: true,
        signal: new AbortController().signal, onLine: () => {},
      }),
    ).rejects.toThrow(/^missing asset: .+ is not in the project; strict renders fail on it$/);
  });

  it("is a missing-asset finding of check, in the same words, filed under the referencing file", async () => {
    const report = await checkComposition({ projectDir: project, chrome: binaries.chrome, options: { at: [0.5] }, signal: new AbortController().signal, onLine: () => {} });
    const missing = report.runtime.filter((f) => f.code === "missing-asset");
    for (const line of EXPECTED) expect(missing.map((f) => f.message)).toContain(line.slice("finding: ".length));
    expect(missing.find((f) => f.message.includes("styles/assets/bg.jpg"))).toMatchObject({ file: "styles/main.css", severity: "error" });
    expect(missing.find((f) => f.message.includes("assets/logo.png"))?.fixHint).toContain("in index.html");
  });
});
