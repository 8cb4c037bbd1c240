// Range renders (from/to, issue 34 point 6) against the full render of the same composition, in every format, with
// real Chromium and ffmpeg: the range's frames are the full render's same frames, its sound the full mix's same
// samples, and a range split into segments across sessions joins into the range render.
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import type { Format } from "../../core/render/render-options.ts";
import { joinSegments } from "../src/join-segments.ts";
import { planRender, type RenderPlan } from "../src/plan-render.ts";
import { renderProject } from "../src/render-project.ts";
import { renderSegment } from "../src/render-segment.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";

const W = 320;
const H = 180;
const FRAME_BYTES = W * H * 3;
// 2 s at 30 fps = 60 frames. The range is 0.5 s to 1.5 s: frames 15 to 44, 30 frames (two browsers' worth).
const RANGE = { first: 15, frames: 30 };
const signal = () => new AbortController().signal;

// Every frame differs from its neighbours everywhere (the background brightens by 4 levels a frame) and the box
// moves, so a frame off by one is far from the right one. The tone fades in from 0.3 s to 0.7 s and out from 1.3 s
// to 1.7 s: the range starts inside the fade-in and ends inside the fade-out.
const INDEX = `<!doctype html>
<html><head><meta charset="utf-8">
<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<style>
html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }
#root { position: relative; width: ${W}px; height: ${H}px; background: rgb(0, 0, 0); }
#box { position: absolute; left: 0; top: 40px; width: 60px; height: 60px; background: #ff0000; }
</style></head>
<body>
<div id="root" data-composition-id="main" data-start="0" data-duration="2" data-width="${W}" data-height="${H}">
  <div id="box"></div>
  <audio src="assets/tone.wav" data-start="0.3" data-duration="1.4" data-fade-in="0.4" data-fade-out="0.4" data-track-index="1" data-volume="0.8"></audio>
</div>
<script>
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true });
  tl.fromTo("#box", { x: 0 }, { x: 240, duration: 2, ease: "none" }, 0);
  tl.fromTo("#root", { backgroundColor: "rgb(0, 0, 0)" }, { backgroundColor: "rgb(240, 240, 240)", duration: 2, ease: "none" }, 0);
  window.__timelines["main"] = tl;
</script>
</body></html>
`;

let binaries: Binaries;
let project: string;
let out: string;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await mkdtemp(join(tmpdir(), "studio-range-"));
  await mkdir(join(project, "assets"));
  await writeFile(join(project, "index.html"), INDEX);
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=48000", join(project, "assets", "tone.wav")], signal()).done;
  out = await mkdtemp(join(tmpdir(), "studio-range-out-"));
});

type Range = { from?: number | string; to?: number | string };

async function render(name: string, format: Format, range: Range): Promise<string> {
  const outputPath = join(out, name);
  await renderProject({ projectDir: project, outputPath, format, fps: 30, quality: "standard", concurrency: 2, binaries, signal: signal(), ...range });
  return outputPath;
}

/** Every decoded frame of a video as RGB bytes. */
async function decodedFrames(file: string): Promise<Buffer[]> {
  const raw = `${file}.rgb`;
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-i", file, "-f", "rawvideo", "-pix_fmt", "rgb24", raw], signal()).done;
  const bytes = await readFile(raw);
  return Array.from({ length: bytes.length / FRAME_BYTES }, (_, i) => bytes.subarray(i * FRAME_BYTES, (i + 1) * FRAME_BYTES));
}

/** Mean absolute difference of two frames, over every byte. */
function mad(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** The first audio stream as 48 kHz stereo 16-bit samples (interleaved). */
async function samples(file: string): Promise<Int16Array> {
  const raw = `${file}.pcm`;
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-i", file, "-vn", "-ac", "2", "-ar", "48000", "-f", "s16le", raw], signal()).done;
  const bytes = await readFile(raw);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
}

/** Root mean square of a signal, in full scale. */
function rms(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += (values[i]! / 32768) ** 2;
  return Math.sqrt(sum / values.length);
}

/**
 * The range's decoded frames against the full render's: frame i against full frame first + i, within `tolerance`
 * (0: byte for byte), and always nearer it than to the full render's frames either side of it.
 */
function expectSameFrames(range: Buffer[], full: Buffer[], tolerance: number): void {
  expect(full.length).toBe(60);
  expect(range.length).toBe(RANGE.frames);
  range.forEach((frame, i) => {
    const same = mad(frame, full[RANGE.first + i]!);
    if (tolerance === 0) expect(same, `range frame ${i} vs full frame ${RANGE.first + i}`).toBe(0);
    else expect(same, `range frame ${i} vs full frame ${RANGE.first + i}`).toBeLessThanOrEqual(tolerance);
    for (const other of [RANGE.first + i - 1, RANGE.first + i + 1]) {
      expect(mad(frame, full[other]!), `range frame ${i} is nearer full frame ${RANGE.first + i} than ${other}`).toBeGreaterThan(same + 1);
    }
  });
}

describe("range renders", () => {
  it("plans the range: its frames, the first frame on the composition's clock, its length, the clips on the composition's clock", async () => {
    const plan = await planRender({ projectDir: project, options: { format: "mov", fps: 30, from: 0.5, to: 1.5 }, binaries, signal: signal() });
    expect(plan).toMatchObject({ frames: 30, firstFrame: 15, durationSeconds: 1, audio: [{ start: 0.3, duration: 1.4, fadeIn: 0.4, fadeOut: 0.4 }] });
    // Frames count the same way.
    const byFrames = await planRender({ projectDir: project, options: { format: "mov", fps: 30, from: "15f", to: "45f" }, binaries, signal: signal() });
    expect({ frames: byFrames.frames, firstFrame: byFrames.firstFrame }).toEqual({ frames: 30, firstFrame: 15 });
  });

  it("a to past the page's end is cut there with a finding; a from at or past it is refused naming from", async () => {
    const lines: string[] = [];
    const plan = await planRender({ projectDir: project, options: { format: "mp4", from: 1.5, to: 9 }, binaries, signal: signal(), onLine: (l) => lines.push(l) });
    expect({ frames: plan.frames, firstFrame: plan.firstFrame }).toEqual({ frames: 15, firstFrame: 45 });
    expect(plan.findings).toContainEqual(expect.objectContaining({ code: "range-past-end", severity: "warning" }));
    await expect(planRender({ projectDir: project, options: { format: "mp4", from: "60f" }, binaries, signal: signal() }))
      .rejects.toThrow(/^invalid from: "60f" is frame 60, at or past the composition's end \(60 frames, 2 s at 30 fps\)/);
  });

  it("frame reuse in a range: a hold inside it is not captured again, and the frames are still the full render's", async () => {
    // The same page with the box and the background still until 1 s: the range's first half is a hold.
    const held = await mkdtemp(join(tmpdir(), "studio-range-held-"));
    await writeFile(join(held, "index.html"), INDEX.replace(/<audio[^>]*><\/audio>/, "").replaceAll("duration: 2, ease: \"none\" }, 0)", "duration: 1, ease: \"none\" }, 1)"));
    const zips: Record<string, Uint8Array>[] = [];
    let reused = 0;
    for (const range of [{}, { from: 0.5, to: 1.5 }]) {
      const outputPath = join(out, `held-${zips.length}.zip`);
      const result = await renderProject({ projectDir: held, outputPath, format: "png-sequence", fps: 30, concurrency: 2, frameReuse: true, binaries, signal: signal(), ...range });
      reused = result.reusedFrames;
      zips.push(unzipSync(await readFile(outputPath)));
    }
    // Frames 15 to 30 are one picture; each of the two browsers captures its first frame, the rest of the hold is reused.
    expect(reused).toBeGreaterThanOrEqual(13);
    const [full, range] = zips as [Record<string, Uint8Array>, Record<string, Uint8Array>];
    for (let i = 0; i < RANGE.frames; i++) {
      const [name, fullName] = [i + 1, RANGE.first + i + 1].map((n) => `frame_${String(n).padStart(6, "0")}.png`) as [string, string];
      expect(Buffer.from(range[name]!).equals(Buffer.from(full[fullName]!)), `${name} vs the full render's ${fullName}`).toBe(true);
    }
    expect(Buffer.from(range["frame_000001.png"]!).equals(Buffer.from(range["frame_000030.png"]!))).toBe(false);
  });

  it("png-sequence: the range's PNGs are byte for byte the full render's same frames, numbered from frame_000001.png", async () => {
    const [full, range] = [await render("full.zip", "png-sequence", {}), await render("range.zip", "png-sequence", { from: "15f", to: "45f" })];
    const fullZip = unzipSync(await readFile(full));
    const rangeZip = unzipSync(await readFile(range));
    const names = Object.keys(rangeZip).filter((name) => name.endsWith(".png")).sort();
    expect(names).toHaveLength(RANGE.frames);
    expect(names[0]).toBe("frame_000001.png");
    names.forEach((name, i) => {
      const fullName = `frame_${String(RANGE.first + i + 1).padStart(6, "0")}.png`;
      expect(Buffer.from(rangeZip[name]!).equals(Buffer.from(fullZip[fullName]!)), `${name} vs the full render's ${fullName}`).toBe(true);
    });
    // The neighbours differ (the comparison is not of still frames).
    expect(Buffer.from(rangeZip[names[0]!]!).equals(Buffer.from(fullZip["frame_000015.png"]!))).toBe(false);
    expect(Object.keys(rangeZip)).toContain("audio.m4a");
  });

  // ProRes codes each frame on its own and the sound is PCM: the range's decoded frames and samples must be exactly the
  // full render's. The segments then join into exactly the range render.
  describe("mov", () => {
    let fullMov: string;
    let rangeMov: string;
    let plan: RenderPlan;

    it("decoded frames and PCM samples are exactly the full render's same ones", async () => {
      fullMov = await render("full.mov", "mov", {});
      rangeMov = await render("range.mov", "mov", { from: 0.5, to: 1.5 });
      expectSameFrames(await decodedFrames(rangeMov), await decodedFrames(fullMov), 0);
      const [full, range] = [await samples(fullMov), await samples(rangeMov)];
      expect(range.length).toBe(48000 * 2);
      const same = full.subarray(24000 * 2, 72000 * 2);
      let most = 0;
      for (let i = 0; i < range.length; i++) most = Math.max(most, Math.abs(range[i]! - same[i]!));
      // The same mix graph up to the range's end, cut at a sample (0.5 s is 24000 of them): the same samples.
      expect(most).toBe(0);
      // The sound is in it, fading in at the start of the range (0.5 s: 0.2 s into a 0.4 s fade-in).
      expect(rms(range.subarray(0, 4800))).toBeGreaterThan(0.02);
      expect(rms(range.subarray(0, 2400))).toBeLessThan(rms(range.subarray(19200, 24000)));
    });

    it("split across nodes: segments over the range only, joined, equal the range render exactly", async () => {
      plan = await planRender({ projectDir: project, options: { format: "mov", fps: 30, from: 0.5, to: 1.5 }, binaries, signal: signal() });
      const paths: string[] = [];
      for (const [i, [fromFrame, toFrame]] of [[0, 12], [12, 30]].entries()) {
        const outputPath = join(out, `segment-${i}.mov`);
        const lines: string[] = [];
        const result = await renderSegment({
          projectDir: project, options: { format: "mov", fps: 30, from: 0.5, to: 1.5 }, plan, fromFrame: fromFrame!, toFrame: toFrame!, outputPath,
          concurrency: 1, binaries, signal: signal(), onLine: (l) => lines.push(l),
        });
        expect(result.frames).toBe(toFrame! - fromFrame!);
        expect(lines).toContain(`segment: frames ${fromFrame! + 1} to ${toFrame} of 30 (the composition's ${15 + fromFrame! + 1} to ${15 + toFrame!})`);
        paths.push(outputPath);
      }
      const joined = join(out, "joined.mov");
      const result = await joinSegments({ projectDir: project, options: { format: "mov" }, plan, segmentPaths: paths, outputPath: joined, binaries, signal: signal() });
      expect(result).toMatchObject({ frames: 30, durationSeconds: 1 });
      const [a, b] = [await decodedFrames(joined), await decodedFrames(rangeMov)];
      expect(a.length).toBe(30);
      a.forEach((frame, i) => expect(mad(frame, b[i]!), `joined frame ${i}`).toBe(0));
      expect(Buffer.from((await samples(joined)).buffer).equals(Buffer.from((await samples(rangeMov)).buffer))).toBe(true);
    });
  });

  // mp4 (H.264), webm (VP9) and GIF are lossy and predict frames from others: the range starts its first GOP (or its
  // palette) where the full render is mid-GOP, so their decoded frames differ a little though the captured frames are
  // the same (proved above, byte for byte). Compared decoded, with the same encoder settings.
  // Measured worst MADs (of 255, every byte of a frame): mp4 0.20, webm 0.30, GIF 0.10; a frame off by one is over 1
  // further (the background moves 4 levels a frame), which expectSameFrames checks for every frame too.
  it.each([
    ["mp4", 0.6],
    ["webm", 0.6],
    ["gif", 0.5],
  ] as const)("%s: decoded frames are the full render's same frames within the encoder's noise", async (format, tolerance) => {
    const ext = format;
    const [full, range] = [await render(`full.${ext}`, format, {}), await render(`range.${ext}`, format, { from: "15f", to: "45f" })];
    expectSameFrames(await decodedFrames(range), await decodedFrames(full), tolerance);
    if (format === "gif") return;
    // AAC and Opus code the sound in frames aligned to the output's start, so the range's track is coded apart from
    // the full one's: its samples are the full render's same seconds within the codec's own error. Measured: an
    // error of 0.00003 (AAC) and 0.00012 (Opus) rms against the tone's 0.065, 54 and 45 dB below it; the bound is
    // 0.001 (36 dB below), where sound shifted by one video frame (33 ms of a 440 Hz tone) is off by the tone's own
    // level. The first and last 20 ms (one codec frame) are left out: there each track starts and ends its coding.
    const [a, b] = [await samples(range), await samples(full)];
    const same = b.subarray(24000 * 2, 24000 * 2 + a.length);
    const diff = Int16Array.from(a, (v, i) => v - same[i]!);
    const error = rms(diff.subarray(2 * 960, diff.length - 2 * 960));
    expect(error, `${format}: audio error rms ${error.toFixed(5)} vs the tone's ${rms(a).toFixed(4)}`).toBeLessThan(0.001);
    expect(rms(a)).toBeGreaterThan(0.03);
  });
});
