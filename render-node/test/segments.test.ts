// A render split in segments (plan, three segments on separate sessions, join) against the same render on one
// node: same frames, same length, same sound. Real Chromium, real ffmpeg.
import { mkdir, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { joinSegments } from "../src/join-segments.ts";
import { planRender } from "../src/plan-render.ts";
import type { RenderPlan } from "../src/plan-render.ts";
import { planThenRender, renderProject } from "../src/render-project.ts";
import { renderSegment } from "../src/render-segment.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import type { Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { splitFrameRanges } from "../src/capture/split-frame-ranges.ts";
import { CANVAS, makeTestProject } from "./make-test-project.ts";
import { audioRms, probeStreams } from "./inspect-video.ts";

let binaries: Binaries;
let project: string;
let out: string;
const signal = () => new AbortController().signal;
const options = { format: "mp4" as const, quality: "standard" as const };

beforeAll(async () => {
  binaries = await resolveBinaries();
  // 3 s at 30 fps = 90 frames; the sub-composition plays from 1 s to 2 s, the tone from 0.5 s to 1.5 s.
  project = await makeTestProject(binaries.ffmpeg, { duration: 3, subStart: 1 });
  out = await mkdtemp(join(tmpdir(), "studio-segments-"));
});

async function formatDuration(file: string): Promise<number> {
  const text = await runTool(binaries.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file], signal()).done;
  return Number(text.trim());
}

/** Frame `index` of a video as RGB bytes. */
async function frameRgb(file: string, index: number): Promise<Buffer> {
  const raw = `${file}.${index}.rgb`;
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-i", file, "-vf", `select=eq(n\\,${index})`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw], signal()).done;
  return readFile(raw);
}

/** Mean absolute difference per channel (R, G, B) of two frames. */
function meanAbsoluteDifference(a: Buffer, b: Buffer): number[] {
  expect(a.length).toBe(b.length);
  const sums = [0, 0, 0];
  for (let i = 0; i < a.length; i++) sums[i % 3]! += Math.abs(a[i]! - b[i]!);
  return sums.map((s) => s / (a.length / 3));
}

describe("segments", () => {
  let plan: RenderPlan;
  const joined = () => join(out, "joined.mp4");
  const whole = () => join(out, "whole.mp4");

  it("plans: frames, rate, size and the audio clip as a project path", async () => {
    plan = await planRender({ projectDir: project, options, binaries, signal: signal() });
    expect(plan).toMatchObject({
      composition: "index.html", frames: 90, fps: { num: 30, den: 1 }, fpsText: "30", durationSeconds: 3, width: CANVAS.width, height: CANVAS.height,
      audio: [{ src: "assets/tone.wav", start: 0.5, duration: 1, mediaStart: 0, volume: 0.8, kind: "audio" }],
    });
  });

  it("three segments joined equal the one-node render: frame count, duration, frames (MAD < 1), audio", async () => {
    const ranges = splitFrameRanges(plan.frames, 3);
    const segments: string[] = [];
    for (const [i, range] of ranges.entries()) {
      const path = join(out, `segment-${i}.mp4`);
      const progress: number[] = [];
      const result = await renderSegment({
        projectDir: project, options, plan, fromFrame: range.start, toFrame: range.end, outputPath: path, concurrency: 2, binaries,
        signal: signal(), onProgress: (p) => progress.push(p.frame),
      });
      expect(result.frames).toBe(range.end - range.start);
      expect(progress.at(-1)).toBe(range.end - range.start);
      // Video only, exactly its frames.
      const streams = await probeStreams(binaries.ffprobe, path);
      expect(streams.map((s) => s.codec_type)).toEqual(["video"]);
      expect(streams[0]!.nb_read_frames).toBe(String(range.end - range.start));
      segments.push(path);
    }
    const lines: string[] = [];
    const join1 = await joinSegments({ projectDir: project, options, plan, segmentPaths: segments, outputPath: joined(), binaries, signal: signal(), onLine: (l) => lines.push(l) });
    expect(join1).toMatchObject({ frames: 90, durationSeconds: 3 });
    expect(lines).toContain("mixing 1 audio clip");
    expect(lines).toContain("joining 3 chunks, with 1 audio clip mixed");
    await renderProject({ projectDir: project, outputPath: whole(), ...options, concurrency: 2, binaries, signal: signal() });

    const [a, b] = [await probeStreams(binaries.ffprobe, joined()), await probeStreams(binaries.ffprobe, whole())];
    const video = (s: typeof a) => s.find((x) => x.codec_type === "video")!;
    expect(video(a)).toMatchObject({ codec_name: "h264", nb_read_frames: "90", r_frame_rate: "30/1", width: CANVAS.width });
    expect(video(a).nb_read_frames).toBe(video(b).nb_read_frames);
    expect(a.filter((s) => s.codec_type === "audio").map((s) => s.codec_name)).toEqual(["aac"]);
    expect(await formatDuration(joined())).toBeCloseTo(await formatDuration(whole()), 2);
    // Frames at segment edges (29|30, 59|60), inside segments and at the ends.
    for (const index of [0, 15, 29, 30, 31, 45, 59, 60, 75, 89]) {
      const mad = meanAbsoluteDifference(await frameRgb(joined(), index), await frameRgb(whole(), index));
      expect(Math.max(...mad), `frame ${index}: MAD ${mad.map((m) => m.toFixed(3)).join(", ")}`).toBeLessThan(1);
    }
    // The animation really is in the frames (the comparison is not of two black videos): the box moved.
    const first = await frameRgb(joined(), 0);
    const last = await frameRgb(joined(), 89);
    expect(Math.max(...meanAbsoluteDifference(first, last))).toBeGreaterThan(1);
    // The tone once, at the same level, where the one-node render has it.
    for (const [from, to] of [[0.05, 0.45], [0.6, 1.4], [1.6, 2.9]] as const) {
      const [x, y] = [await audioRms(binaries.ffmpeg, joined(), from, to), await audioRms(binaries.ffmpeg, whole(), from, to)];
      expect(Math.abs(x - y), `audio ${from}-${to} s: ${x} vs ${y}`).toBeLessThan(0.002);
    }
    expect(await audioRms(binaries.ffmpeg, joined(), 0.6, 1.4)).toBeGreaterThan(0.03);
  });

  it("planThenRender: one composition load gives the plan, then stops (split elsewhere) or renders the whole", async () => {
    const seen: RenderPlan[] = [];
    const stopped = await planThenRender({
      projectDir: project, outputPath: join(out, "stopped.mp4"), ...options, binaries, signal: signal(),
      decide: async (p) => (seen.push(p), "stop"),
    });
    expect(stopped.result).toBeNull();
    expect(stopped.plan).toEqual(plan);
    expect(seen).toEqual([plan]);
    expect(await stat(join(out, "stopped.mp4")).catch(() => null)).toBeNull();
    const lines: string[] = [];
    const rendered = await planThenRender({
      projectDir: project, outputPath: join(out, "decided.mp4"), ...options, concurrency: 2, binaries, signal: signal(),
      onLine: (l) => lines.push(l), decide: async () => "render",
    });
    expect(rendered.result).toMatchObject({ frames: 90, durationSeconds: 3 });
    expect(lines.filter((l) => l.startsWith("loading composition"))).toHaveLength(1);
    const streams = await probeStreams(binaries.ffprobe, join(out, "decided.mp4"));
    expect(streams.find((x) => x.codec_type === "video")?.nb_read_frames).toBe("90");
  });

  it("refuses a range outside the plan and a missing segment file, before any process starts", async () => {
    await expect(
      renderSegment({ projectDir: project, options, plan, fromFrame: 60, toFrame: 91, outputPath: join(out, "x.mp4"), binaries, signal: signal() }),
    ).rejects.toThrow("segment frames [60, 91) are not a range of the plan's 90 frames");
    await expect(
      joinSegments({ projectDir: project, options, plan, segmentPaths: [join(out, "nope.mp4")], outputPath: join(out, "y.mp4"), binaries, signal: signal() }),
    ).rejects.toThrow(/segment file .*nope\.mp4 does not exist/);
  });

  it("a <video> clip: each segment extracts only the frames it shows, and the joined frames equal the one-node render's", async () => {
    // A pattern whose colours shift strongly every frame, from 0.5 s to the end of the 3 s composition.
    // ProRes (mov) is intra-only: a difference between the two renders is content, not where an encoder's GOP began
    // (with x264 at crf 20 this detailed pattern differs by MAD ≈ 2 between two GOP layouts of the same frames).
    const intra = { format: "mov" as const, quality: "standard" as const };
    const dir = await mkdtemp(join(tmpdir(), "studio-segments-video-"));
    await mkdir(join(dir, "assets"));
    await writeFile(join(dir, "index.html"), `<!doctype html>
<html><head><meta charset="utf-8"><script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<style>html, body { margin: 0; width: 320px; height: 180px; overflow: hidden; background: #000; }
[data-composition-id="v"] { position: relative; width: 320px; height: 180px; background: #000; }
video { position: absolute; left: 40px; top: 30px; width: 240px; height: 120px; }</style></head>
<body><div data-composition-id="v" data-start="0" data-duration="3" data-width="320" data-height="180">
  <video src="assets/pattern.mp4" muted data-start="0.5" data-track-index="1"></video>
</div>
<script>window.__timelines = { v: gsap.timeline({ paused: true }).to({}, { duration: 3 }) };</script></body></html>`);
    await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=240x120:r=30:d=3,geq=r='mod(N*37+X\\,256)':g='mod(N*91+Y\\,256)':b='mod(N*53\\,256)'", "-c:v", "libx264", "-pix_fmt", "yuv420p", join(dir, "assets", "pattern.mp4")], signal()).done;
    const videoPlan = await planRender({ projectDir: dir, options: intra, binaries, signal: signal() });
    const lines: string[] = [];
    const parts: string[] = [];
    for (const [i, range] of splitFrameRanges(videoPlan.frames, 3).entries()) {
      const path = join(out, `video-segment-${i}.mov`);
      await renderSegment({ projectDir: dir, options: intra, plan: videoPlan, fromFrame: range.start, toFrame: range.end, outputPath: path, concurrency: 1, binaries, signal: signal(), onLine: (l) => lines.push(l) });
      parts.push(path);
    }
    // Segment 0 (0-0.967 s) shows clip frames 1-15; segment 2 (2-2.967 s) clip frames 46-75, not the 45 before them.
    expect(lines.some((l) => /^extracted 15 frames of \S+ \(frames 1 to 15 for this segment\)$/.test(l))).toBe(true);
    expect(lines.some((l) => /^extracted 30 frames of \S+ \(frames 46 to 75 for this segment\)$/.test(l))).toBe(true);
    const joinedVideo = join(out, "video-joined.mov");
    const wholeVideo = join(out, "video-whole.mov");
    await joinSegments({ projectDir: dir, options: intra, plan: videoPlan, segmentPaths: parts, outputPath: joinedVideo, binaries, signal: signal() });
    await renderProject({ projectDir: dir, outputPath: wholeVideo, ...intra, concurrency: 1, binaries, signal: signal() });
    for (const index of [14, 15, 16, 29, 30, 31, 45, 59, 60, 61, 89]) {
      const mad = meanAbsoluteDifference(await frameRgb(joinedVideo, index), await frameRgb(wholeVideo, index));
      expect(Math.max(...mad), `frame ${index}: MAD ${mad.map((m) => m.toFixed(3)).join(", ")}`).toBeLessThan(1);
    }
    // A clip frame off by one would show: neighbouring frames of the pattern differ by more than that.
    expect(Math.max(...meanAbsoluteDifference(await frameRgb(wholeVideo, 60), await frameRgb(wholeVideo, 61)))).toBeGreaterThan(1);
  });
});
