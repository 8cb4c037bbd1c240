// Real renders (real Chromium, real ffmpeg) of a small project, checked frame by frame and stream by stream.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import type { RenderResult } from "../src/render-project.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import type { Binaries } from "../src/system/resolve-binaries.ts";
import type { Format } from "../../core/render/render-options.ts";
import { CANVAS, makeTestProject } from "./make-test-project.ts";
import { audioRms, probeStreams, readPixel } from "./inspect-video.ts";
import type { StreamInfo } from "./inspect-video.ts";

let binaries: Binaries;
let project: string;
let outDir: string;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await makeTestProject(binaries.ffmpeg, {
    extraHead: '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter&display=swap">',
  });
  outDir = await mkdtemp(join(tmpdir(), "studio-out-"));
});

async function render(format: Format, fps?: string | number): Promise<{ file: string; result: RenderResult; lines: string[]; streams: StreamInfo[] }> {
  const file = join(outDir, `out-${fps ?? 30}.${format}`.replace("/", "_"));
  const lines: string[] = [];
  const result = await renderProject({
    projectDir: project, outputPath: file, format, fps, quality: "standard",
    signal: new AbortController().signal, onLine: (line) => lines.push(line),
  });
  return { file, result, lines, streams: await probeStreams(binaries.ffprobe, file) };
}

const video = (streams: StreamInfo[]) => streams.find((s) => s.codec_type === "video");
const audio = (streams: StreamInfo[]) => streams.find((s) => s.codec_type === "audio");
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const BLACK: [number, number, number] = [0, 0, 0];

function expectColour(actual: [number, number, number], expected: [number, number, number]) {
  const distance = Math.max(...actual.map((v, i) => Math.abs(v - expected[i]!)));
  expect(distance, `pixel ${actual.join(",")} should be ${expected.join(",")}`).toBeLessThan(48);
}

describe("renderProject", () => {
  it("renders mp4: h264 + aac, exact frames, GSAP positions, sub-composition window, audio placement", async () => {
    const { file, result, lines, streams } = await render("mp4");
    expect(video(streams)).toMatchObject({ codec_name: "h264", width: CANVAS.width, height: CANVAS.height, r_frame_rate: "30/1", nb_read_frames: "60" });
    expect(audio(streams)?.codec_name).toBe("aac");
    expect(result.frames).toBe(60);
    // Root box: x = 100 × t. Frame 15 = 0.5 s: box spans x 50..90; sub-composition (starts at 1 s) hidden.
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 15, 70, 40), RED);
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 15, 120, 40), BLACK);
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 15, 20, 140), BLACK);
    // Frame 30 = 1.0 s: sub-composition starts, its dot at local time 0 (x 0..40).
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 30, 20, 140), GREEN);
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 30, 120, 40), RED);
    // Frame 45 = 1.5 s: sub-composition local time 0.5 → dot x 100..140; root box x 150..190.
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 45, 120, 140), GREEN);
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 45, 20, 140), BLACK);
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 45, 170, 40), RED);
    // The tone (sine at 1/8 full scale, volume 0.8) plays from 0.5 s for 1 s.
    expect(await audioRms(binaries.ffmpeg, file, 0.05, 0.45)).toBeLessThan(0.005);
    expect(await audioRms(binaries.ffmpeg, file, 0.6, 1.4)).toBeGreaterThan(0.03);
    expect(await audioRms(binaries.ffmpeg, file, 1.6, 1.95)).toBeLessThan(0.005);
    // Log lines a person can follow; the Google Fonts link for Inter is served from the bundled fonts, so nothing
    // tries to reach fonts.googleapis.com and Inter did not fall back.
    expect(lines).toContain("loading composition index.html");
    expect(lines.some((l) => /^capturing with (beginFrame|screenshots), \d browsers?$/.test(l))).toBe(true);
    expect(lines.some((l) => /^frame 60\/60 \(100%\), [\d.]+ fps, ETA 0 s$/.test(l))).toBe(true);
    expect(result.findings.filter((f) => f.message.includes("fonts.googleapis.com") || f.code === "font-fallback")).toEqual([]);
    // The sound is mixed while the browsers capture (it needs no frame): the mix starts before the first frame and
    // the join after the last one only copies the track in, so nothing is mixed after "joining".
    const stage = (name: string) => result.timeline.find((s) => s.stage === name);
    expect(stage("mixing audio")?.start).toBeLessThanOrEqual(stage("capturing")!.start);
    const joining = lines.findIndex((l) => l.startsWith("joining"));
    expect(lines[joining]).toMatch(/^joining \d+ chunks?, with 1 audio clip mixed$/);
    expect(lines.findIndex((l) => l.startsWith("mixing"))).toBeLessThan(joining);
  });

  it("renders webm: vp9 + opus", async () => {
    const { file, streams } = await render("webm");
    expect(video(streams)).toMatchObject({ codec_name: "vp9", width: CANVAS.width, height: CANVAS.height, nb_read_frames: "60" });
    expect(audio(streams)?.codec_name).toBe("opus");
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 45, 120, 140), GREEN);
  });

  it("renders mov: ProRes + pcm", async () => {
    const { file, streams } = await render("mov");
    expect(video(streams)).toMatchObject({ codec_name: "prores", width: CANVAS.width, height: CANVAS.height, nb_read_frames: "60" });
    expect(audio(streams)?.codec_name).toBe("pcm_s16le");
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 45, 170, 40), RED);
  });

  it("renders gif with a palette and no audio, at the GIF default of 15 fps (a 320 px canvas is not upscaled)", async () => {
    const { file, streams } = await render("gif");
    expect(video(streams)).toMatchObject({ codec_name: "gif", width: CANVAS.width, height: CANVAS.height, nb_read_frames: "30" });
    expect(audio(streams)).toBeUndefined();
    // Frame 22 is at 22/15 = 1.47 s: the dot is at x ≈ 100.
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 22, 120, 140), GREEN);
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 7, 20, 140), BLACK);
  });

  it("passes 30000/1001 to ffmpeg exactly and renders round(2 s × 29.97) = 60 frames", async () => {
    const { file, streams, result } = await render("mp4", "30000/1001");
    expect(video(streams)).toMatchObject({ r_frame_rate: "30000/1001", nb_read_frames: "60" });
    expect(result.durationSeconds).toBeCloseTo(2.002, 3);
    // Frame 45 is at 45 × 1001/30000 = 1.5015 s: the dot is at x ≈ 100.
    expectColour(await readPixel(binaries.ffmpeg, file, CANVAS.width, 45, 120, 140), GREEN);
  });

  it("scales with a resolution preset (square letterboxes the 16:9 canvas)", async () => {
    const file = join(outDir, "square.mp4");
    const result = await renderProject({
      projectDir: project, outputPath: file, format: "mp4", resolution: "square", quality: "draft", signal: new AbortController().signal,
    });
    const streams = await probeStreams(binaries.ffprobe, file);
    expect(video(streams)).toMatchObject({ width: 1080, height: 1080, nb_read_frames: "60" });
    expect(result.width).toBe(1080);
    // Scale 1080/320 = 3.375; canvas 1080x608 centred (top 236). Root box at 1.5 s: x 150..190 → 506..641, y 20..60 → 303..438.
    expectColour(await readPixel(binaries.ffmpeg, file, 1080, 45, 570, 370), RED);
    expectColour(await readPixel(binaries.ffmpeg, file, 1080, 45, 570, 100), BLACK);
  });
});
