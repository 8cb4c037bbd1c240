// Shader transitions in real renders (real Chromium, real ffmpeg): a composition declaring HyperShader.init as
// HyperFrames' docs write it (the library from jsDelivr, which the node answers with its own) renders its
// transition frames as the two scenes blended by the shader, not the scene on top; frames outside are the page
// as it is, still reused when they provably repeat; an unknown shader is a finding, and a strict render fails on it.
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import type { FrameDone } from "../src/capture/render-frame-range.ts";
import puppeteer from "puppeteer-core";
import { BASE_FLAGS } from "../src/browser/launch-capture-browser.ts";
import { renderProject } from "../src/render-project.ts";
import { servePreview } from "../src/browser-jobs/serve-preview.ts";
import { takeSnapshots } from "../src/browser-jobs/take-snapshots.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { readPngPixel } from "./read-png.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
const HYPER_SHADER = "https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions/dist/index.global.js";

let binaries: Binaries;
let work: string;
beforeAll(async () => {
  binaries = await resolveBinaries();
  work = await mkdtemp(join(tmpdir(), "studio-shader-transitions-"));
});

/** Two flat scenes, red then blue, 160x90 at 10 fps for 2 s; one transition from 0.5 s for 1 s. */
async function project(name: string, shader: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "index.html"), `<!doctype html><html><head><meta charset="utf-8">
<script src="${GSAP}"></script><script src="${HYPER_SHADER}"></script><style>
html, body { margin: 0; width: 160px; height: 90px; overflow: hidden; background: #000; }
#root { position: relative; width: 160px; height: 90px; }
.scene { position: absolute; inset: 0; }
</style></head><body>
<div id="root" data-composition-id="main" data-start="0" data-duration="2" data-width="160" data-height="90" data-fps="10">
  <div id="s1" class="scene" style="background: #ff0000"></div>
  <div id="s2" class="scene" style="background: #0000ff"></div>
</div>
<script>
window.__timelines = window.__timelines || {};
const tl = HyperShader.init({ bgColor: "#000000", scenes: ["s1", "s2"], transitions: [{ time: 0.5, shader: ${JSON.stringify(shader)}, duration: 1 }] });
window.__timelines["main"] = tl;
</script></body></html>`);
  return dir;
}

const signal = () => new AbortController().signal;

describe("shader transitions", () => {
  it("blends the two scenes through the transition and leaves the frames outside it alone (and reused)", async () => {
    const dir = await project("split", "chromatic-split");
    const frames: FrameDone[] = [];
    const outputPath = join(work, "split.zip");
    const result = await renderProject({ projectDir: dir, outputPath, format: "png-sequence", quality: "draft", concurrency: 1, binaries, signal: signal(), onFrame: (f) => frames.push(f) });
    expect(result.findings).toEqual([]);
    const entries = unzipSync(await readFile(outputPath));
    const at = (frame: number) => readPngPixel(Buffer.from(entries[`frame_${String(frame + 1).padStart(6, "0")}.png`]!), 80, 45);
    // Before: the first scene; after: the second.
    expect(at(0)).toEqual([255, 0, 0]);
    expect(at(4)).toEqual([255, 0, 0]);
    expect(at(16)).toEqual([0, 0, 255]);
    expect(at(19)).toEqual([0, 0, 255]);
    // t = 1.0 s is halfway: on flat colour, chromatic-split is the mean of both scenes, not the blue one on top.
    const middle = at(10);
    expect(middle[0]).toBeGreaterThanOrEqual(126);
    expect(middle[0]).toBeLessThanOrEqual(129);
    expect(middle[2]).toBeGreaterThanOrEqual(126);
    expect(middle[2]).toBeLessThanOrEqual(129);
    // A fifth of the way (t = 0.7 s): four fifths red.
    expect(at(7)[0]).toBeGreaterThanOrEqual(202);
    expect(at(7)[0]).toBeLessThanOrEqual(206);
    // Frames 5-15 (0.5 s to 1.5 s, both ends) are blends, never reused; frame 16 follows a blend and is captured.
    const byIndex = new Map(frames.map((f) => [f.index, f]));
    for (let i = 5; i <= 15; i++) expect(byIndex.get(i)).toMatchObject({ reused: false, change: "shader transition chromatic-split" });
    expect(byIndex.get(16)?.reused).toBe(false);
    expect(byIndex.get(16)?.change).not.toMatch(/shader transition/);
    // Outside it, the still frames are still reused.
    expect([1, 2, 3, 4].filter((i) => byIndex.get(i)?.reused).length).toBeGreaterThan(0);
    expect([17, 18, 19].filter((i) => byIndex.get(i)?.reused).length).toBeGreaterThan(0);
  }, 120_000);

  it("snapshots a time inside a transition as the render's frame there: both scenes blended", async () => {
    const dir = await project("snap", "chromatic-split");
    const { images } = await takeSnapshots({ projectDir: dir, chrome: binaries.chrome, options: { at: [0.2, 1] }, signal: signal(), onLine: () => {} });
    expect(readPngPixel(images[0]!.png, 80, 45).slice(0, 3)).toEqual([255, 0, 0]);
    const [r, g, b] = readPngPixel(images[1]!.png, 80, 45);
    expect([Math.abs(r! - 128) <= 2, g, Math.abs(b! - 128) <= 2]).toEqual([true, 0, true]);
    expect(readPngPixel(images[2]!.png, 80, 45).slice(0, 3)).toEqual([0, 0, 255]); // the end frame
  }, 60_000);

  it("reports a shader it cannot draw and switches the scenes without it; a strict render fails on it", async () => {
    const dir = await project("unknown", "wobble");
    const outputPath = join(work, "unknown.zip");
    const result = await renderProject({ projectDir: dir, outputPath, format: "png-sequence", quality: "draft", concurrency: 1, binaries, signal: signal() });
    expect(result.findings).toEqual([expect.objectContaining({ code: "shader-transition-unsupported", severity: "warning", file: "index.html" })]);
    expect(result.findings[0]!.message).toContain('"wobble"');
    // Not a crossfade: halfway through, the second scene stands on the first, as HyperFrames leaves it.
    const entries = unzipSync(await readFile(outputPath));
    expect(readPngPixel(Buffer.from(entries["frame_000011.png"]!), 80, 45).slice(0, 3)).toEqual([0, 0, 255]);
    await expect(renderProject({ projectDir: dir, outputPath: join(work, "strict.zip"), format: "png-sequence", quality: "draft", concurrency: 1, strict: true, binaries, signal: signal() }))
      .rejects.toThrow(/"wobble".*strict renders fail on it/);
  }, 120_000);

  it("previews with our HyperShader: mid-transition both scenes show (a crossfade standing in for the shader)", async () => {
    const dir = await project("preview", "sdf-iris");
    const secret = "s3cr3t-shader-transition-preview";
    const preview = await servePreview({ projectDir: dir, secret, firstPort: 3970 });
    const browser = await puppeteer.launch({ executablePath: binaries.chrome, headless: "shell", args: BASE_FLAGS });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${preview.port}/${secret}/`, { waitUntil: "load" });
      expect(await page.$eval('script[src$="hyper-shader.js"]', (el) => el.getAttribute("src"))).toBe(`/${secret}/__studio/hyper-shader.js`);
      await page.waitForFunction(() => Boolean((window as unknown as { __studio?: { seek?: unknown } }).__studio?.seek), { timeout: 10_000 });
      const opacities = async (t: number) => {
        await page.evaluate((at: number) => (window as unknown as { __studio: { seek(t: number): Promise<void> } }).__studio.seek(at), t);
        return page.evaluate(() => ["s1", "s2"].map((id) => Number(getComputedStyle(document.getElementById(id)!).opacity)));
      };
      expect(await opacities(0.2)).toEqual([1, 0]);
      const [from, to] = await opacities(1);
      expect(from).toBeGreaterThan(0.1);
      expect(to).toBeGreaterThan(0.1);
      expect(from).toBeLessThan(0.9);
      expect(await opacities(1.8)).toEqual([0, 1]);
    } finally {
      await browser.close();
      await preview.close();
    }
  }, 60_000);
});
