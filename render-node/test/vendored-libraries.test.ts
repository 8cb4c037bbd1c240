// Libraries a composition carries in its own files (real Chromium, real ffmpeg): HyperFrames' shader-transition
// library copied into the project (`vendor/hyper-shader.global.js`, as HyperFrames' regression fixture does) or
// pasted inline is answered with the node's HyperShader, so its transition renders as a blend, as from the CDN; a
// copy the node does not recognise draws its own loading screen, which is a finding (a strict render fails), never
// a silent `done`. GSAP copied into the project runs as it is.
//
// The library here is a stand-in written for the test with the shape of the real build (an IIFE assigning the
// global `HyperShader`, its `[HyperShader]` error prefix, its SHADER_NAMES export) and what it does outside
// HyperFrames' engine: init() puts up its "Preparing scene transitions" overlay and leaves it there. The real
// 0.8.41 build is checked against HyperFrames by bench/parity-corpus/shader-library-vendored.
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import { servePreview } from "../src/browser-jobs/serve-preview.ts";
import { gsapDist } from "../src/browser/intercept-requests.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { readPngPixel } from "./read-png.ts";

const LIBRARY_BODY = `var HyperShader=(()=>{var SHADER_NAMES=["sdf-iris","chromatic-split"];
function init(c){if(!c||!Array.isArray(c.scenes))throw new Error("[HyperShader] init(): scenes and transitions must be arrays");
var o=document.createElement("div");o.setAttribute("aria-label","Preparing scene transitions");
o.style.cssText="position:absolute;inset:0;z-index:2147483647;background:#030504";o.textContent="Preparing scene transitions";
document.body.appendChild(o);var tl=window.gsap.timeline({paused:true});window.__timelines=window.__timelines||{};window.__timelines.main=tl;return tl}
return{SHADER_NAMES:SHADER_NAMES,init:init}})();`;
/** As the release ships it: `"use strict";var HyperShader=(()=>{...})();`. */
const LIBRARY = `"use strict";${LIBRARY_BODY}`;
/** Not recognised: a bundle that hides the global's name (the node cannot tell it is the library). */
const DISGUISED = `"use strict";window["Hyper"+"Shader"]=(()=>{${LIBRARY_BODY.slice("var HyperShader=(()=>{".length)}`;

let binaries: Binaries;
let work: string;
beforeAll(async () => {
  binaries = await resolveBinaries();
  work = await mkdtemp(join(tmpdir(), "studio-vendored-libraries-"));
});

/**
 * Red then blue, 160x90 at 10 fps for 1 s, chromatic-split from 0.2 s for 0.6 s; GSAP and the library as given. Text
 * (the stand-in's overlay) is in a generic family: the page's default, Times New Roman, is drawn with a fallback on a
 * machine without a metric-compatible font (fonts-liberation), which is a finding of its own.
 */
async function project(name: string, libraryTag: string, files: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  await mkdir(join(dir, "vendor"), { recursive: true });
  await copyFile(join(gsapDist("3.14.2"), "gsap.min.js"), join(dir, "vendor", "gsap.min.js"));
  for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
  await writeFile(join(dir, "index.html"), `<!doctype html><html><head><meta charset="utf-8">
<script src="vendor/gsap.min.js"></script>${libraryTag}<style>
html, body { margin: 0; width: 160px; height: 90px; overflow: hidden; background: #000; font-family: sans-serif; }
#root { position: relative; width: 160px; height: 90px; }
.scene { position: absolute; inset: 0; }
</style></head><body>
<div id="root" data-composition-id="main" data-start="0" data-duration="1" data-width="160" data-height="90" data-fps="10">
  <div id="s1" class="scene" style="background: #ff0000"></div>
  <div id="s2" class="scene" style="background: #0000ff"></div>
</div>
<script>
window.__timelines = window.__timelines || {};
const tl = HyperShader.init({ bgColor: "#000000", scenes: ["s1", "s2"], transitions: [{ time: 0.2, shader: "chromatic-split", duration: 0.6 }] });
window.__timelines["main"] = tl;
</script></body></html>`);
  return dir;
}

const signal = () => new AbortController().signal;

async function render(dir: string, strict = false) {
  const outputPath = join(dir, "..", `${dir.split("/").pop()}-${strict ? "strict" : "out"}.zip`);
  const result = await renderProject({ projectDir: dir, outputPath, format: "png-sequence", quality: "draft", concurrency: 1, strict, binaries, signal: signal() });
  const entries = unzipSync(await readFile(outputPath));
  const at = (frame: number) => readPngPixel(Buffer.from(entries[`frame_${String(frame + 1).padStart(6, "0")}.png`]!), 80, 45);
  return { result, at };
}

/** Frame 0 the first scene, frame 5 (halfway through) both blended, frame 9 the second: no loading screen. */
function expectTransitionRendered(at: (frame: number) => number[]): void {
  expect(at(0)).toEqual([255, 0, 0]);
  const [r, g, b] = at(5);
  expect([Math.abs(r! - 128) <= 3, g, Math.abs(b! - 128) <= 3]).toEqual([true, 0, true]);
  expect(at(9)).toEqual([0, 0, 255]);
}

describe("libraries copied into the project", () => {
  it("renders a shader transition whose library is a project file (vendor/hyper-shader.global.js), GSAP vendored too", async () => {
    const dir = await project("file", `<script src="vendor/hyper-shader.global.js"></script>`, { "vendor/hyper-shader.global.js": LIBRARY });
    const { result, at } = await render(dir);
    expect(result.findings).toEqual([]);
    expectTransitionRendered(at);
  }, 120_000);

  it("renders a shader transition whose library is pasted into an inline <script>", async () => {
    const dir = await project("inline", `<script>${LIBRARY}</script>`, {});
    const { result, at } = await render(dir);
    expect(result.findings).toEqual([]);
    expectTransitionRendered(at);
  }, 120_000);

  it("previews with our HyperShader in place of the project's copy, as a file and inline", async () => {
    const dir = await project("preview", `<script>${LIBRARY}</script>`, { "vendor/hyper-shader.global.js": LIBRARY });
    const secret = "s3cr3t-vendored-library-preview";
    const preview = await servePreview({ projectDir: dir, secret, firstPort: 3990 });
    try {
      const base = `http://127.0.0.1:${preview.port}/${secret}`;
      const file = await (await fetch(`${base}/vendor/hyper-shader.global.js`)).text();
      expect(file).toContain("studio: true");
      expect(file).not.toContain("Preparing scene transitions");
      const page = await (await fetch(`${base}/`)).text();
      expect(page).toContain("studio: true");
      expect(page).not.toContain("Preparing scene transitions");
    } finally {
      await preview.close();
    }
  }, 60_000);

  it("reports a copy it does not recognise (its loading screen shows), and a strict render fails on it", async () => {
    const dir = await project("disguised", `<script src="vendor/shaders.bundle.js"></script>`, { "vendor/shaders.bundle.js": DISGUISED });
    const { result } = await render(dir);
    expect(result.findings).toEqual([expect.objectContaining({ code: "library-unsupported", severity: "warning", file: "index.html" })]);
    expect(result.findings[0]!.message).toMatch(/shader-transition library.*not recognise/);
    await expect(render(dir, true)).rejects.toThrow(/shader-transition library.*strict renders fail on it/);
  }, 120_000);
});
