// A WebGL canvas renders as in HyperFrames' software path (WebGL on SwiftShader, no GPU): a composition drawing
// with raw WebGL (a clear colour, a triangle whose colour follows the timeline) shows those pixels in the video,
// not a blank canvas.
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { readPngPixel } from "./read-png.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";

let binaries: Binaries;
let work: string;
beforeAll(async () => {
  binaries = await resolveBinaries();
  work = await mkdtemp(join(tmpdir(), "studio-webgl-"));
});

// The canvas is cleared to teal; a triangle over its middle is drawn in a red that the timeline takes from 0.2 to 1.
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><script src="${GSAP}"></script><style>
html, body { margin: 0; width: 160px; height: 90px; overflow: hidden; background: #000; }
#root { position: relative; width: 160px; height: 90px; }
canvas { position: absolute; inset: 0; width: 160px; height: 90px; }
</style></head><body>
<div id="root" data-composition-id="main" data-start="0" data-duration="1" data-width="160" data-height="90" data-fps="10">
  <canvas id="gl" width="160" height="90"></canvas>
</div>
<script>
const gl = document.getElementById("gl").getContext("webgl", { preserveDrawingBuffer: true });
if (!gl) throw new Error("no WebGL context");
const compile = (type, src) => { const s = gl.createShader(type); gl.shaderSource(s, src); gl.compileShader(s); return s; };
const prog = gl.createProgram();
gl.attachShader(prog, compile(gl.VERTEX_SHADER, "attribute vec2 p; void main(){ gl_Position = vec4(p, 0.0, 1.0); }"));
gl.attachShader(prog, compile(gl.FRAGMENT_SHADER, "precision mediump float; uniform float r; void main(){ gl_FragColor = vec4(r, 0.0, 0.0, 1.0); }"));
gl.linkProgram(prog);
gl.useProgram(prog);
gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-0.5, -0.5, 0.5, -0.5, 0.0, 0.5]), gl.STATIC_DRAW);
const at = gl.getAttribLocation(prog, "p");
gl.enableVertexAttribArray(at);
gl.vertexAttribPointer(at, 2, gl.FLOAT, false, 0, 0);
const state = { red: 0.2 };
function draw() {
  gl.clearColor(0.0, 0.5, 0.5, 1.0);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.uniform1f(gl.getUniformLocation(prog, "r"), state.red);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
}
window.__timelines = window.__timelines || {};
const tl = gsap.timeline({ paused: true, onUpdate: draw });
tl.to(state, { red: 1, duration: 1, ease: "none" }, 0);
window.__timelines["main"] = tl;
draw();
</script></body></html>`;

describe("WebGL canvases", () => {
  it("draw in the render: the clear colour around, the triangle's timeline-driven colour in the middle", async () => {
    const dir = join(work, "webgl");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "index.html"), PAGE);
    const outputPath = join(work, "webgl.zip");
    const result = await renderProject({ projectDir: dir, outputPath, format: "png-sequence", quality: "draft", concurrency: 1, binaries, signal: new AbortController().signal });
    expect(result.findings).toEqual([]);
    const entries = unzipSync(await readFile(outputPath));
    const px = (frame: number, x: number, y: number) => readPngPixel(Buffer.from(entries[`frame_${String(frame + 1).padStart(6, "0")}.png`]!), x, y).slice(0, 3);
    const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]!) <= 2);
    // Clear colour (0, 0.5, 0.5) in a corner; the triangle's centre red at 0.2 + 0.8 t.
    expect(near(px(0, 5, 5), [0, 128, 128]), `corner ${px(0, 5, 5)}`).toBe(true);
    expect(near(px(0, 80, 50), [51, 0, 0]), `frame 0 ${px(0, 80, 50)}`).toBe(true);
    expect(near(px(5, 80, 50), [153, 0, 0]), `frame 5 ${px(5, 80, 50)}`).toBe(true);
  }, 120_000);
});
