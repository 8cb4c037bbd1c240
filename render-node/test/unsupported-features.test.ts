// A HyperFrames media treatment the studio does not render (a grading preset's vignette, a data-automation effect lane) is
// said, not skipped in silence: a feature-unsupported finding naming the element and its file, from a sub-composition
// too, in a render's plan and in check's runtime section; a strict render fails on it.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { checkComposition } from "../src/browser-jobs/check-composition.ts";
import { planRender } from "../src/plan-render.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";

let binaries: Binaries;
let project = "";
const signal = new AbortController().signal;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await mkdtemp(join(tmpdir(), "studio-unsupported-"));
  await mkdir(join(project, "compositions"));
  await writeFile(join(project, "index.html"), `<!doctype html><html><head><style>html, body { margin: 0; width: 320px; height: 180px; }</style></head>
<body><div data-composition-id="main" data-start="0" data-duration="0.5" data-width="320" data-height="180">
<img id="graded" alt="" data-color-grading='{"preset":"night-lift","intensity":1}' style="width: 100px; height: 100px; background: #f43f5e">
<div id="plain" data-color-grading='{"preset":"night-lift"}'>graded by neither renderer: only pictures are</div>
<div data-composition-id="card" data-composition-src="compositions/card.html" data-start="0" data-duration="0.5"></div>
</div><script>window.__timelines = { main: { duration: () => 0.5, seek() {}, pause() {} } };</script></body></html>`);
  await writeFile(join(project, "compositions", "card.html"), `<template><div data-composition-id="card" data-width="320" data-height="180">
<div id="swell" data-automation='{"version":1,"lanes":[{"target":"fx.lp.frequency","points":[{"t":0,"v":400}]}]}'>card</div></div></template>`);
});

it("reports each unsupported attribute as a finding with its element and file", async () => {
  const plan = await planRender({ projectDir: project, options: {}, binaries, signal });
  const found = plan.findings.filter((f) => f.code === "feature-unsupported");
  expect(found).toEqual([
    expect.objectContaining({ severity: "warning", file: "index.html", selector: "img#graded", message: "data-color-grading on img#graded: the night-lift preset's look beyond its colour (its vignette) is not rendered by the studio (HyperFrames renders it): the element is graded, without that" }),
    expect.objectContaining({ severity: "warning", file: "compositions/card.html", selector: "div#swell", message: expect.stringContaining("data-automation on div#swell") }),
  ]);
}, 60_000);

it("is in check's runtime section", async () => {
  const report = await checkComposition({ projectDir: project, chrome: binaries.chrome, options: { at: [0.25] }, signal, onLine: () => {} });
  expect(report.runtime.filter((f) => f.code === "feature-unsupported").map((f) => [f.file, f.selector])).toEqual([["index.html", "img#graded"], ["compositions/card.html", "div#swell"]]);
}, 60_000);

it("fails a strict render on it", async () => {
  await expect(renderProject({ projectDir: project, outputPath: join(project, "out.mp4"), format: "mp4", quality: "draft", strict: true, signal }))
    .rejects.toThrow(/data-color-grading on img#graded: .*strict renders fail on it/);
}, 60_000);
