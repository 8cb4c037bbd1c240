// The page → node boundary in real Chromium and ffmpeg: a composition that forges every value the page hands the
// node (tampering-project.ts) renders `done` with a page-report-invalid finding naming each forged field, the forged
// values refused or left out: no node file (the canary PNG) reaches the video, no file appears outside the job's
// folder, the valid clip still plays, window.__studio stays the runtime's own; a strict render fails naming the
// first field; check names them too; a forged root width refuses the report. Three short renders (320x180, 1 s,
// draft) and one check.
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkComposition } from "../src/browser-jobs/check-composition.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { H, makeTamperingProject, W, type TamperingProject } from "./tampering-project.ts";

let binaries: Binaries;
let project: TamperingProject;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await makeTamperingProject(binaries.ffmpeg);
}, 60_000);

/** Every decoded frame of a video as RGB bytes. */
async function decodeFrames(file: string): Promise<Buffer[]> {
  const raw = `${file}.rgb`;
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-i", file, "-f", "rawvideo", "-pix_fmt", "rgb24", raw], new AbortController().signal).done;
  const bytes = readFileSync(raw);
  const size = W * H * 3;
  return Array.from({ length: Math.floor(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}

/** Pixels of a frame matching `test`. */
function count(frame: Buffer, test: (r: number, g: number, b: number) => boolean): number {
  let n = 0;
  for (let i = 0; i + 2 < frame.length; i += 3) if (test(frame[i]!, frame[i + 1]!, frame[i + 2]!)) n++;
  return n;
}

const pixel = (frame: Buffer, x: number, y: number) => [...frame.subarray((y * W + x) * 3, (y * W + x) * 3 + 3)];

describe("a composition that forges what its page reports", () => {
  it("renders with each forged field refused or left out, named by a finding; nothing from outside the project", async () => {
    const out = join(project.dir, "out.mp4");
    const result = await renderProject({ projectDir: project.dir, outputPath: out, format: "mp4", quality: "draft", signal: new AbortController().signal });
    const invalid = result.findings.filter((f) => f.code === "page-report-invalid");
    const named = invalid.map((f) => f.message).join("\n");
    for (const field of [
      "info().fps", "info().timelines[0]", "info().timelines[2]", "info().timelines[3]",
      "info().findings[0].severity", "info().findings[1].code", "info().findings[2].file", "info().findings[3]",
      "info().audio[1].start", "info().audio[2].start", "info().audio[3].kind",
      "info().videos[0].playbackRate", "info().videos[2].index", "info().videos[3].index",
      "volumeAutomation()", "__studioShaderTransitions.transitions[0].time", "__studioShaderTransitions.transitions[1].fromScene",
      "seekFrame(", "fontFallbacks[0]", "findings()[0].severity",
    ]) {
      expect.soft(named, field).toContain(`the page reported an invalid ${field}`);
    }
    // (Soft: a regression shows every field and frame it lets through at once.)
    // Every such finding is an error, names its outcome, and none carries the forged text whole.
    for (const finding of invalid) {
      expect(finding.severity).toBe("error");
      expect(finding.message.length).toBeLessThan(1000);
    }
    expect(named).not.toContain("x".repeat(100));
    // The video: the valid clip (right) plays blue, the forged one (left) is left out and stays black; no canary
    // magenta anywhere, and no green square (window.__studio could not be wrapped, replaced or redefined).
    const frames = await decodeFrames(out);
    expect(frames.length).toBe(30);
    for (const [i, frame] of frames.entries()) {
      expect.soft(count(frame, (r, g, b) => r > 150 && g < 100 && b > 150), `magenta in frame ${i}`).toBe(0);
      expect.soft(count(frame, (r, g, b) => g > 150 && r < 100 && b < 100), `green in frame ${i}`).toBe(0);
    }
    const [right, left] = [pixel(frames[15]!, 240, 45), pixel(frames[15]!, 80, 45)];
    expect(right[2]).toBeGreaterThan(180);
    expect(right[0]).toBeLessThan(60);
    expect(Math.max(...left)).toBeLessThan(40);
    // Nothing was written outside the job's folder: the canary folder the forged index points into holds only its PNG.
    expect(await readdir(project.canaryDir)).toEqual(["canary.png"]);
  }, 180_000);

  it("fails a strict render naming the first forged field", async () => {
    const out = join(project.dir, "strict.mp4");
    await expect(renderProject({ projectDir: project.dir, outputPath: out, format: "mp4", quality: "draft", strict: true, signal: new AbortController().signal }))
      .rejects.toThrow(/the page reported an invalid info\(\)\.fps: .*; strict renders fail on it/);
    expect(await readdir(project.canaryDir)).toEqual(["canary.png"]);
  }, 120_000);

  it("check reports the forged fields in its runtime section and still inspects the layout it can read", async () => {
    const report = await checkComposition({ projectDir: project.dir, chrome: binaries.chrome, options: { at: [0.5] }, signal: new AbortController().signal, onLine: () => {} });
    const invalid = report.runtime.filter((f) => f.code === "page-report-invalid").map((f) => f.message).join("\n");
    for (const field of ["info().videos[0].playbackRate", "info().findings[1].code", "fontFallbacks[0]", "layout(0.5)["]) {
      expect.soft(invalid, field).toContain(`the page reported an invalid ${field}`);
    }
    expect(report.runtime.find((f) => f.code === "page-report-invalid")?.severity).toBe("error");
    expect(report.times).toEqual([0.5]);
  }, 120_000);

  it("refuses the whole report when the root's size is forged, strict or not", async () => {
    const refused = await makeTamperingProject(binaries.ffmpeg, { refuse: true });
    await expect(renderProject({ projectDir: refused.dir, outputPath: join(refused.dir, "out.mp4"), format: "mp4", quality: "draft", signal: new AbortController().signal }))
      .rejects.toThrow(/the page reported an invalid info\(\)\.width: .*got -5.*the composition cannot be rendered from it/);
    expect(await readdir(refused.canaryDir)).toEqual(["canary.png"]);
  }, 120_000);
});
