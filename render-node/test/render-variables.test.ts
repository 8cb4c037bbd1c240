// Render-time variables (the `variables` render option) reach the page exactly as HyperFrames 0.8.170 renders
// `--variables` (real Chromium, real ffmpeg; the expected colours are what `hyperframes render --variables` gave for
// this same layout): the root's getVariables() and CSS custom property take the value; a sub-composition's
// lowercased CSS property of a camelCase id it declares takes it too (--subcolor), while its own getVariables() and
// the property under the id as written keep its defaults (so an all-lowercase id keeps the sub-composition's own). strictVariables
// refuses an undeclared or mistyped key naming it; otherwise each is a warning finding in the log.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { COLOURS, readPixel, type Rgb } from "./inspect-video.ts";

const W = 320;
const H = 180;
const { RED, GREEN, BLUE, BLACK } = COLOURS;

// Top row: the root's script paints A from getVariables().rootColor, B is var(--rootcolor). Bottom row, inside
// the sub-composition: s1 from its getVariables().subColor, s2 var(--subcolor), s3 its getVariables().rootColor,
// s4 var(--rootcolor) (inherited from the root).
const INDEX = `<!doctype html>
<html data-composition-variables='[{"id":"rootColor","type":"color","label":"Root","default":"#0000ff"}]'>
<head><meta charset="utf-8"><script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<style>
  html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }
  #a { position: absolute; left: 0; top: 0; width: 80px; height: 90px; background: #000; }
  #b { position: absolute; left: 80px; top: 0; width: 80px; height: 90px; background: var(--rootcolor, #000); }
  #sub { position: absolute; left: 0; top: 90px; width: ${W}px; height: 90px; }
</style></head>
<body><div data-composition-id="main" data-start="0" data-duration="1" data-width="${W}" data-height="${H}" style="position: relative; width: ${W}px; height: ${H}px; background: #808080">
  <div id="a"></div><div id="b"></div>
  <div id="sub" data-composition-id="card" data-composition-src="compositions/card.html" data-start="0" data-duration="1" data-track-index="1"></div>
  <script>
    document.getElementById("a").style.background = window.__hyperframes.getVariables().rootColor || "#000";
    window.__timelines = window.__timelines || {};
    window.__timelines["main"] = gsap.timeline({ paused: true }).to({}, { duration: 1 });
  </script>
</div></body></html>`;

const CARD = `<!doctype html>
<html data-composition-variables='[{"id":"subColor","type":"color","label":"Sub","default":"#0000ff"}]'><body>
<div data-composition-id="card" data-width="${W}" data-height="90" data-duration="1">
  <div class="s1"></div><div class="s2"></div><div class="s3"></div><div class="s4"></div>
  <style>
    [data-composition-id="card"] div { position: absolute; top: 0; width: 80px; height: 90px; }
    [data-composition-id="card"] .s1 { left: 0; background: #000; }
    [data-composition-id="card"] .s2 { left: 80px; background: var(--subcolor, #000); }
    [data-composition-id="card"] .s3 { left: 160px; background: #000; }
    [data-composition-id="card"] .s4 { left: 240px; background: var(--rootcolor, #000); }
  </style>
  <script>
    const v = window.__hyperframes.getVariables();
    document.querySelector(".s1").style.background = v.subColor || "#000";
    document.querySelector(".s3").style.background = v.rootColor || "#000";
  </script>
</div></body></html>`;

// The same lowercase id declared by the root (blue) and by a sub-composition (green): HyperFrames sets each
// composition's own values as --<id> on its elements after the scripts run, so inside the card var(--accent) is the
// card's default while the root's takes the render's red.
const SHARED_INDEX = INDEX.replace(/data-composition-variables='[^']*'/, `data-composition-variables='[{"id":"accent","type":"color","label":"Accent","default":"#0000ff"}]'`)
  .replace("var(--rootcolor, #000)", "var(--accent, #000)");
const SHARED_CARD = `<!doctype html>
<html data-composition-variables='[{"id":"accent","type":"color","label":"Accent","default":"#00ff00"}]'><body>
<div data-composition-id="card" data-width="${W}" data-height="90" data-duration="1">
  <div class="chip"></div>
  <style>[data-composition-id="card"] .chip { position: absolute; left: 80px; top: 0; width: 80px; height: 90px; background: var(--accent, #000); }</style>
</div></body></html>`;

let binaries: Binaries;
let project: string;
let sharedProject: string;
let outDir: string;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await mkdtemp(join(tmpdir(), "studio-variables-"));
  outDir = await mkdtemp(join(tmpdir(), "studio-variables-out-"));
  await mkdir(join(project, "compositions"));
  await writeFile(join(project, "index.html"), INDEX);
  await writeFile(join(project, "compositions", "card.html"), CARD);
  sharedProject = await mkdtemp(join(tmpdir(), "studio-variables-shared-"));
  await mkdir(join(sharedProject, "compositions"));
  await writeFile(join(sharedProject, "index.html"), SHARED_INDEX);
  await writeFile(join(sharedProject, "compositions", "card.html"), SHARED_CARD);
});

let count = 0;
async function render(options: { variables?: Record<string, unknown>; strictVariables?: boolean; projectDir?: string }) {
  const file = join(outDir, `out-${count++}.mp4`);
  const lines: string[] = [];
  const result = await renderProject({
    projectDir: options.projectDir ?? project, outputPath: file, format: "mp4", quality: "standard", concurrency: 1, ...options,
    signal: new AbortController().signal, onLine: (line) => lines.push(line),
  });
  return { file, result, lines };
}

async function expectPixels(file: string, cells: [number, number, Rgb, string][]) {
  for (const [x, y, expected, what] of cells) {
    const actual = await readPixel(binaries.ffmpeg, file, W, 15, x, y);
    const distance = Math.max(...actual.map((v, i) => Math.abs(v - expected[i]!)));
    expect(distance, `${what}: pixel (${x},${y}) is ${actual.join(",")}, expected ${expected.join(",")}`).toBeLessThan(48);
  }
}

describe("render-time variables", () => {
  it("reach the root's getVariables() and CSS, and a sub-composition's CSS for ids it declares, as HyperFrames renders them", async () => {
    const { file, result } = await render({ variables: { rootColor: "#ff0000", subColor: "#00ff00" } });
    await expectPixels(file, [
      [40, 45, RED, "root getVariables().rootColor"],
      [120, 45, RED, "root var(--rootcolor)"],
      [40, 135, BLUE, "sub getVariables().subColor keeps the sub-composition's default (HyperFrames' scoped getVariables)"],
      [120, 135, GREEN, "sub var(--subcolor) takes the render's value"],
      [200, 135, BLACK, "sub getVariables() has no rootColor"],
      [280, 135, RED, "sub var(--rootcolor) inherits the root's"],
    ]);
    // subColor is declared by the sub-composition, not the rendered file: a warning naming the key (HyperFrames
    // warns the same), the render goes on.
    const warnings = result.findings.filter((f) => f.code === "variable-mismatch");
    expect(warnings.map((f) => [f.severity, f.file])).toEqual([["warning", "index.html"]]);
    expect(warnings[0]!.message).toMatch(/variable "subColor" is not declared in data-composition-variables of index\.html/);
  }, 120_000);

  it("a sub-composition that declares the same lowercase id keeps its own value in var(--id), as HyperFrames renders it", async () => {
    const { file } = await render({ variables: { accent: "#ff0000" }, projectDir: sharedProject });
    await expectPixels(file, [
      [120, 45, RED, "root var(--accent) takes the render's value"],
      [120, 135, GREEN, "card var(--accent) shows the card's own default, not the render's"],
    ]);
  }, 120_000);

  it("without variables every declared default shows, in scripts and CSS", async () => {
    const { file, result } = await render({});
    await expectPixels(file, [
      [40, 45, BLUE, "root default through getVariables()"],
      [120, 45, BLUE, "root default through var(--rootcolor)"],
      [40, 135, BLUE, "sub default through getVariables()"],
      [120, 135, BLUE, "sub default through var(--subcolor)"],
    ]);
    expect(result.findings.filter((f) => f.code === "variable-mismatch")).toEqual([]);
  }, 120_000);

  it("strictVariables refuses an undeclared key or a wrong type before any browser starts, naming the key", async () => {
    await expect(render({ variables: { subColor: "#00ff00" }, strictVariables: true })).rejects.toThrow(/variable "subColor" is not declared/);
    await expect(render({ variables: { rootColor: 12 }, strictVariables: true })).rejects.toThrow(/variable "rootColor" expects color .*got number/);
  }, 60_000);
});
