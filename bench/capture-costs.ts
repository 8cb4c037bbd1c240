// Where a frame's time goes in Chromium (issue 24, item 3): loads one composition of bench/lib/speed-cases.ts in a
// capture browser (as a render does) and captures the same frames by several paths, printing per frame the wall
// time of the seek and of the capture, the CPU time Chromium's processes used (in all, and per process role as user
// + kernel ms), and the image size.
//
//   node_modules/.bin/node bench/capture-costs.ts [--case starter] [--frames 30] [--screenshot] [--flags="--chromium-switch ..."] [--variants 0,2]
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { StudioWindow } from "../page-runtime/api.ts";
import { launchCaptureBrowser, type CaptureBrowser } from "../render-node/src/browser/launch-capture-browser.ts";
import { loadComposition } from "../render-node/src/browser/load-composition.ts";
import { resolveBinaries } from "../render-node/src/system/resolve-binaries.ts";
import { serveProject } from "../render-node/src/browser/serve-project.ts";
import { chromiumCpuByRole, describeCpuPerFrame } from "./lib/chromium-cpu.ts";
import { SPEED_CASES } from "./lib/speed-cases.ts";

type Shot = { format: "jpeg" | "png" | "webp"; quality?: number; optimizeForSpeed?: boolean; screencast?: boolean } | null;

const VARIANTS: { name: string; shot: Shot }[] = [
  { name: "no image (raster + composite only)", shot: null },
  { name: "jpeg q75 (draft)", shot: { format: "jpeg", quality: 75, optimizeForSpeed: true } },
  { name: "jpeg q85 (standard)", shot: { format: "jpeg", quality: 85, optimizeForSpeed: true } },
  { name: "jpeg q85 without optimizeForSpeed", shot: { format: "jpeg", quality: 85 } },
  { name: "png", shot: { format: "png", optimizeForSpeed: true } },
  { name: "webp q85", shot: { format: "webp", quality: 85 } },
  // The same JPEG through Page.startScreencast's frame capturer (pooled buffers in the GPU process), beginFrame drawing.
  { name: "jpeg q85 by screencast", shot: { format: "jpeg", quality: 85, screencast: true } },
];

let screencasting = false;
// One screencast frame per drawn beginFrame: the listener is set before the draw, the frame acknowledged at once.
async function screencastFrame(browser: CaptureBrowser, quality: number): Promise<number> {
  if (!screencasting) {
    await browser.session.send("Page.startScreencast", { format: "jpeg", quality, everyNthFrame: 1 });
    screencasting = true;
  }
  const frame = new Promise<string | null>((resolve) => {
    const timer = setTimeout(() => done(null), 3000);
    const done = (data: string | null) => {
      clearTimeout(timer);
      browser.session.off("Page.screencastFrame", onFrame);
      resolve(data);
    };
    const onFrame = (event: { data: string; sessionId: number }) => {
      void browser.session.send("Page.screencastFrameAck", { sessionId: event.sessionId });
      done(event.data);
    };
    browser.session.on("Page.screencastFrame", onFrame);
  });
  const drawn = await browser.session.send("HeadlessExperimental.beginFrame", { interval: 33.3, noDisplayUpdates: false });
  const data = await frame;
  if (drawn.hasDamage && !data) throw new Error("screencast: no frame within 3 s of a drawn beginFrame");
  return data ? Buffer.from(data, "base64").length : 0;
}

async function capture(browser: CaptureBrowser, shot: Shot): Promise<number> {
  if (browser.mode === "beginFrame" && shot?.screencast) return screencastFrame(browser, shot.quality ?? 85);
  if (screencasting) {
    await browser.session.send("Page.stopScreencast");
    screencasting = false;
  }
  if (browser.mode === "beginFrame") {
    const r = await browser.session.send("HeadlessExperimental.beginFrame", { interval: 33.3, noDisplayUpdates: false, ...(shot ? { screenshot: shot } : {}) });
    return r.screenshotData ? Buffer.from(r.screenshotData, "base64").length : 0;
  }
  if (!shot) return 0;
  const r = await browser.session.send("Page.captureScreenshot", { ...shot, captureBeyondViewport: false });
  return Buffer.from(r.data, "base64").length;
}

const { values } = parseArgs({ options: { case: { type: "string", default: "starter" }, frames: { type: "string", default: "30" }, screenshot: { type: "boolean", default: false }, flags: { type: "string", default: "" }, variants: { type: "string" } } });
const speedCase = SPEED_CASES.find((c) => c.name === values.case);
if (!speedCase) throw new Error(`--case: one of ${SPEED_CASES.map((c) => c.name).join(", ")}`);
const frames = Number(values.frames);
const binaries = await resolveBinaries();
const project = await speedCase.make(binaries.ffmpeg);
const server = await serveProject(project, await mkdtemp(join(tmpdir(), "capture-costs-")));
const browser = await launchCaptureBrowser({ chrome: binaries.chrome, preferBeginFrame: !values.screenshot, width: 1920, height: 1080, onLine: console.log, args: values.flags.split(" ").filter(Boolean) });
const pid = browser.pid;
try {
  if (pid === undefined) throw new Error("the capture browser has no process id to read its CPU time from");
  const info = await loadComposition(browser, server.pageUrl("index.html", "render"), server.origin, { onLine: () => {}, onFinding: () => {} }, { waitForTimeline: true });
  await browser.session.send("Emulation.setDeviceMetricsOverride", { width: info.width, height: info.height, deviceScaleFactor: 1, mobile: false });
  await browser.page.evaluate((c: Record<string, unknown>) => (window as unknown as StudioWindow).__studio.configure(c), { fps: [30, 1], videoFrameUrl: "/__studio/video/{folder}/{frame}.jpg", videoFrames: [] });
  console.log(`${speedCase.name}: ${info.width}x${info.height}, ${browser.mode}, ${frames} frames per variant spread over ${info.duration} s`);
  console.log("| path | seek ms/frame | capture ms/frame | Chromium CPU ms/frame | of which per process, user+kernel ms | KiB/frame |\n| --- | --- | --- | --- | --- | --- |");
  const chosen = values.variants ? values.variants.split(",").map((i) => VARIANTS[Number(i)]!) : VARIANTS;
  // The first variant twice: its first pass warms the page up.
  for (const variant of [chosen[0]!, ...chosen]) {
    let seek = 0, shot = 0, bytes = 0;
    const cpu0 = chromiumCpuByRole(pid);
    for (let i = 0; i < frames; i++) {
      const t = (i * info.duration) / frames;
      const a = performance.now();
      await browser.page.evaluate((time: number) => (window as unknown as StudioWindow).__studio.seek(time), t);
      const b = performance.now();
      bytes += await capture(browser, variant.shot);
      shot += performance.now() - b;
      seek += b - a;
    }
    const cpu = describeCpuPerFrame(cpu0, chromiumCpuByRole(pid), frames);
    console.log(`| ${variant.name} | ${(seek / frames).toFixed(1)} | ${(shot / frames).toFixed(1)} | ${cpu.total.toFixed(1)} | ${cpu.split} | ${(bytes / frames / 1024).toFixed(0)} |`);
  }
} finally {
  await browser.close();
  await server.close();
}
