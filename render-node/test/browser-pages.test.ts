// Snapshots and checks on real projects in real Chromium, without the Worker: pixels where GSAP puts the box,
// the contact sheet's size, and each planted problem found by the check.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contactSheetLayout } from "../../core/browser/contact-sheet-layout.ts";
import { checkComposition } from "../src/browser-jobs/check-composition.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { takeSnapshots } from "../src/browser-jobs/take-snapshots.ts";
import { CANVAS, makeTestProject } from "./make-test-project.ts";
import { pngSize, readPngPixel } from "./read-png.ts";
import { BROKEN_HTML, CROWDED_HTML } from "./broken-project.ts";

const binaries = await resolveBinaries();
const signal = new AbortController().signal;
const noop = () => {};

describe("snapshots", () => {
  it("shows the frame a render would: the red box where GSAP puts it at the chosen time; the sheet follows the count", async () => {
    const dir = await makeTestProject(binaries.ffmpeg);
    const { images } = await takeSnapshots({ projectDir: dir, chrome: binaries.chrome, options: { at: [1, 1.5] }, signal, onLine: noop });
    expect(images.map((i) => i.path)).toEqual([
      "snapshots/frame-01-1.000s.png",
      "snapshots/frame-02-1.500s.png",
      "snapshots/frame-03-end-1.967s.png",
      "snapshots/contact-sheet.png",
    ]);
    const [at1, at15, , sheet] = images;
    expect(pngSize(at1!.png)).toEqual(CANVAS);
    // t = 1 s: the box (x 0→200 over 2 s) is at x = 100, so pixel (120, 40) is red and (20, 40) is black.
    const red = readPngPixel(at1!.png, 120, 40);
    expect(red[0]).toBeGreaterThan(200);
    expect(red[1]).toBeLessThan(50);
    expect(Math.max(...readPngPixel(at1!.png, 20, 40))).toBeLessThan(30);
    // t = 1.5 s: the sub-composition's green dot is halfway along its own 1 s timeline: x = 100 in the host at top 100.
    const green = readPngPixel(at15!.png, 120, 140);
    expect(green[1]).toBeGreaterThan(200);
    expect(green[0]).toBeLessThan(50);
    const layout = contactSheetLayout(3, CANVAS.width, CANVAS.height);
    expect(pngSize(sheet!.png)).toEqual({ width: layout.width, height: layout.height });
  });

  it("takes 5 evenly spaced frames plus the end by default, and none extra with end: false; sheet rows follow", async () => {
    const dir = await makeTestProject(binaries.ffmpeg);
    const all = await takeSnapshots({ projectDir: dir, chrome: binaries.chrome, options: {}, signal, onLine: noop });
    expect(all.images.map((i) => i.time)).toEqual([0, 0.4, 0.8, 1.2, 1.6, 1.967, null]);
    const sheet = all.images.at(-1)!;
    const six = contactSheetLayout(6, CANVAS.width, CANVAS.height);
    expect(six.rows).toBe(2);
    expect(pngSize(sheet.png)).toEqual({ width: six.width, height: six.height });
    const two = await takeSnapshots({ projectDir: dir, chrome: binaries.chrome, options: { frames: 2, end: false }, signal, onLine: noop });
    expect(two.images.map((i) => i.time)).toEqual([0, 1, null]);
    const one = contactSheetLayout(2, CANVAS.width, CANVAS.height);
    expect(pngSize(two.images.at(-1)!.png)).toEqual({ width: one.width, height: one.height });
  });
});

describe("check in Chromium", () => {
  it("finds nothing in a clean composition", async () => {
    const dir = await makeTestProject(binaries.ffmpeg);
    const report = await checkComposition({ projectDir: dir, chrome: binaries.chrome, options: {}, signal, onLine: noop });
    expect(report.runtime).toEqual([]);
    expect(report.layout).toEqual([]);
    expect(report.times).toHaveLength(9);
  });

  it("reports a console error, a missing asset, overflowing text and an off-canvas element, with selector, box and time", async () => {
    const dir = await makeTestProject(binaries.ffmpeg);
    await writeFile(join(dir, "index.html"), BROKEN_HTML);
    await mkdir(join(dir, "assets"), { recursive: true });
    const report = await checkComposition({ projectDir: dir, chrome: binaries.chrome, options: { at: [0.5] }, signal, onLine: noop });
    const codes = [...report.runtime, ...report.layout].map((f) => f.code);
    expect(codes).toEqual(expect.arrayContaining(["console-error", "missing-asset", "text-overflow", "off-canvas"]));
    expect(report.runtime.find((f) => f.code === "console-error")?.message).toContain("planted failure");
    // Filed under the file that references it (where the fix goes), naming the missing path.
    expect(report.runtime.find((f) => f.code === "missing-asset")).toMatchObject({ file: "index.html", message: "missing asset: assets/missing.png (referenced by index.html) is not in the project" });
    const overflow = report.layout.find((f) => f.code === "text-overflow");
    expect(overflow).toMatchObject({ selector: "#title", time: 0.5, severity: "warning" });
    expect(overflow?.box).toMatchObject({ x: 10, y: 10, width: 60 });
    const off = report.layout.find((f) => f.code === "off-canvas");
    expect(off).toMatchObject({ selector: "#stray", time: 0.5 });
    expect(off?.box?.x).toBeGreaterThanOrEqual(CANVAS.width);
  });

  it("reports text cut off by its box and captions drawn over each other", async () => {
    const dir = await makeTestProject(binaries.ffmpeg);
    await writeFile(join(dir, "index.html"), CROWDED_HTML);
    const report = await checkComposition({ projectDir: dir, chrome: binaries.chrome, options: { samples: 2 }, signal, onLine: noop });
    expect(report.layout.find((f) => f.code === "text-clipped")).toMatchObject({ selector: "#boxed", times: [0.25, 0.75] });
    expect(report.layout.find((f) => f.code === "text-overlap")).toMatchObject({ selector: "#first", box: expect.objectContaining({ x: 100, y: 60 }) });
    expect(report.layout.filter((f) => f.code === "text-overlap")).toHaveLength(1);
  });
});
