// What the frame fingerprint (incremental re-render, page-runtime/src/runtime/frame-fingerprint.ts) costs a frame,
// against the seek every frame has anyway and the capture it may save: the reference composition (1080p, a
// sub-composition, text, GSAP) opened as a render opens it, `--frames` frames sought in order, each timed three
// ways: seekFrame alone, seekFrame with the fingerprint in the same round trip (as the node asks), and one capture
// (beginFrame JPEG at the render's standard quality). Prints the medians in ms.
//
//   node bench/fingerprint-cost.ts [--frames 120]
import { parseArgs } from "node:util";
import { loadavg } from "node:os";
import type { StudioWindow } from "../page-runtime/api.ts";
import { openComposition } from "../render-node/src/browser/open-composition.ts";
import { drawFrame } from "../render-node/src/capture/capture-frame.ts";
import { resolveBinaries } from "../render-node/src/system/resolve-binaries.ts";
import { makeBenchProject } from "../render-node/bench/bench-render.ts";
import { percentile } from "./lib/measure.ts";

const { values } = parseArgs({ options: { frames: { type: "string", default: "120" } } });
const frames = Number(values.frames);
const binaries = await resolveBinaries();
const project = await makeBenchProject(binaries.ffmpeg, { gsap: "local", fonts: "project" });
const opened = await openComposition({ projectDir: project, chrome: binaries.chrome, preferBeginFrame: true, signal: new AbortController().signal, onLine: () => {} });
const { page } = opened.capture;
const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const seekOnly: number[] = [];
const withPrint: number[] = [];
const capture: number[] = [];
const fps = 30;
for (let frame = 1; frame < Math.min(frames, Math.round(opened.info.duration * fps)); frame++) {
  const t = frame / fps;
  const from = (frame - 1) / fps;
  let began = performance.now();
  await page.evaluate((at: number, f: number) => (window as unknown as StudioWindow).__studio.seekFrame(at, f), t, from);
  seekOnly.push(performance.now() - began);
  // The same frame again, with the fingerprint: the seek itself is then a no-op, so the difference is the print.
  began = performance.now();
  await page.evaluate(async (at: number, f: number) => {
    const studio = (window as unknown as StudioWindow).__studio;
    return [await studio.seekFrame(at, f), studio.frameFingerprint()];
  }, t, t);
  withPrint.push(performance.now() - began);
  began = performance.now();
  await drawFrame(opened.capture, { interval: 1000 / fps }, { jpegQuality: 85, attempts: 4 });
  capture.push(performance.now() - began);
}
await opened.close();
console.log(`reference composition ${opened.info.width}x${opened.info.height}, ${seekOnly.length} frames, load ${loadavg()[0]!.toFixed(1)}`);
console.log(`median ms a frame: seekFrame ${median(seekOnly).toFixed(2)}; seekFrame (a no-op) + fingerprint ${median(withPrint).toFixed(2)}; capture ${median(capture).toFixed(2)}`);
