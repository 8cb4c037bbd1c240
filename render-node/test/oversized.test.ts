// A composition over the studio's limits (core/composition/size-limits.ts) is refused by the render node before it
// starts a browser: a render job from a (fake) Worker fails with the limit named and Chromium never runs (CHROME_PATH
// is a script that leaves a mark if it is ever started); snapshots, checks, plans and segments the same. A page
// whose script enlarges its root after loading is refused once loaded, before anything is captured (real Chromium).
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkComposition } from "../src/browser-jobs/check-composition.ts";
import { planRender } from "../src/plan-render.ts";
import { renderSegment } from "../src/render-segment.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { takeSnapshots } from "../src/browser-jobs/take-snapshots.ts";
import { startNode, startStudio } from "./fake-studio.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";

function composition(root: string, script = ""): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>html, body { margin: 0; width: 160px; height: 90px; overflow: hidden; background: #000; }</style></head>
<body>
<div data-composition-id="main" data-start="0" ${root}></div>
<script>
  const tl = gsap.timeline({ paused: true });
  window.__timelines = window.__timelines || {};
  window.__timelines["main"] = tl;
  ${script}
</script>
</body></html>`;
}

const HUGE = composition('data-duration="2" data-width="100000" data-height="100000"');
const HUGE_MESSAGE =
  'composition index.html is over the studio\'s limits: data-width="100000" is over the maximum of 4096 pixels per side; ' +
  'data-height="100000" is over the maximum of 4096 pixels per side';

let dir = "";
let marker = "";
let fakeChrome = "";
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "studio-oversized-"));
  marker = join(dir, "chrome-started");
  fakeChrome = join(dir, "fake-chrome.sh");
  await writeFile(fakeChrome, `#!/bin/sh\necho "$@" >> "${marker}"\nexit 1\n`);
  await chmod(fakeChrome, 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function project(name: string, html: string): Promise<string> {
  const projectDir = join(dir, name);
  await mkdir(projectDir, { recursive: true });
  await writeFile(join(projectDir, "index.html"), html);
  return projectDir;
}

const chromeStarted = () => stat(marker).then(() => true, () => false);

describe("the render node refuses an oversized composition before starting Chromium", () => {
  it("a render job fails with the limit named; no plan is posted and Chromium never starts", async () => {
    const projectDir = await project("render-job", HUGE);
    const studio = await startStudio(projectDir, { format: "mp4", quality: "draft" });
    cleanups.push(studio.close);
    const node = startNode(studio.url, { CHROME_PATH: fakeChrome });
    cleanups.push(() => node.child.kill("SIGKILL"));
    await studio.completed;
    expect(studio.seen.complete, node.output()).toEqual({ ok: false, error: HUGE_MESSAGE });
    expect(studio.seen.plan).toBeUndefined();
    expect(studio.seen.output).toBeNull();
    expect(await chromeStarted()).toBe(false);
  });

  it("snapshots, checks, plans and segments too, counting a render's frames at its fps", async () => {
    const projectDir = await project("direct", HUGE);
    const binaries: Binaries = { ...(await resolveBinaries()), chrome: fakeChrome };
    const signal = new AbortController().signal;
    const onLine = () => {};
    await expect(takeSnapshots({ projectDir, chrome: fakeChrome, options: {}, signal, onLine })).rejects.toThrow(HUGE_MESSAGE);
    const check = await checkComposition({ projectDir, chrome: fakeChrome, options: {}, signal, onLine });
    expect(check.runtime.map((f) => [f.code, f.message])).toEqual([["composition-load-failed", `the composition did not load: ${HUGE_MESSAGE}`]]);
    await expect(planRender({ projectDir, options: {}, binaries, signal })).rejects.toThrow(HUGE_MESSAGE);

    // 1801 s is fine at 60 fps, not at 120: 216,120 frames.
    const long = await project("long", composition('data-duration="1801" data-width="160" data-height="90"'));
    const plan = { composition: "index.html", frames: 216_120, fps: { num: 120, den: 1 }, fpsText: "120", durationSeconds: 1801, width: 160, height: 90, audio: [], findings: [] };
    await expect(
      renderSegment({ projectDir: long, options: {}, plan, fromFrame: 0, toFrame: 100, outputPath: join(dir, "segment.mp4"), binaries, signal }),
    ).rejects.toThrow('composition index.html is over the studio\'s limits: data-duration="1801" at 120 fps (the fps option) is 216,120 frames, over the maximum of 216,000 frames');
    expect(await chromeStarted()).toBe(false);
  });
});

describe("a page that enlarges itself once loaded", () => {
  it("is refused after loading, before the viewport is sized to it or a frame is captured", async () => {
    const projectDir = await project(
      "grows",
      composition('data-duration="1" data-width="160" data-height="90"', 'document.querySelector("[data-composition-id]").setAttribute("data-width", "100000");'),
    );
    const lines: string[] = [];
    await expect(
      planRender({ projectDir, options: {}, binaries: await resolveBinaries(), signal: new AbortController().signal, onLine: (l) => lines.push(l) }),
    ).rejects.toThrow("composition index.html is over the studio's limits: data-width 100000 is over the maximum of 4096 pixels per side");
    expect(lines.some((l) => l.startsWith("composition main:"))).toBe(false);
  });
});
