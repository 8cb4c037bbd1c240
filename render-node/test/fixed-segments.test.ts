// Fixed segments (core/render/segment-plan.ts): a render's encodes are the composition's one-second segments, each
// its own ffmpeg run, so a segment's bytes depend only on its frames and the settings, not on how many browsers
// rendered it, nor on the range around it. Real Chromium, real ffmpeg, tiny frames.
import { createHash } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { segmentFrames, segmentsOf } from "../../core/render/segment-plan.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { makeTestProject } from "./make-test-project.ts";
import { probeStreams } from "./inspect-video.ts";

describe("segmentsOf", () => {
  it("cuts the composition's clock every second of frames, whatever the range", () => {
    expect(segmentFrames({ num: 30, den: 1 })).toBe(30);
    expect(segmentFrames({ num: 30000, den: 1001 })).toBe(30);
    expect(segmentFrames({ num: 1, den: 2 })).toBe(1);
    expect(segmentsOf({ start: 0, end: 75 }, { num: 30, den: 1 })).toEqual([
      { index: 0, range: { start: 0, end: 30 } },
      { index: 1, range: { start: 30, end: 60 } },
      { index: 2, range: { start: 60, end: 75 } },
    ]);
    // A range render starts mid-segment: its first segment is the partial one, the next ones the full render's.
    expect(segmentsOf({ start: 45, end: 100 }, { num: 30, den: 1 })).toEqual([
      { index: 1, range: { start: 45, end: 60 } },
      { index: 2, range: { start: 60, end: 90 } },
      { index: 3, range: { start: 90, end: 100 } },
    ]);
    expect(segmentsOf({ start: 60, end: 61 }, { num: 30, den: 1 })).toEqual([{ index: 2, range: { start: 60, end: 61 } }]);
  });
});

describe("fixed segments in a render", () => {
  let binaries: Binaries;
  let project: string;
  let out: string;
  beforeAll(async () => {
    binaries = await resolveBinaries();
    // 3 s at 10 fps: 30 frames, segments [0, 10), [10, 20) and [20, 30).
    project = await makeTestProject(binaries.ffmpeg, { duration: 3, subStart: 1 });
    out = await mkdtemp(join(tmpdir(), "studio-fixed-segments-"));
  });

  /** Renders and returns each segment's frames and a hash of its file's bytes, by segment number. */
  async function segmentsOfRender(format: "mp4" | "webm", concurrency: number, from?: number): Promise<Map<number, { range: { start: number; end: number }; sha: string }>> {
    const segments = new Map<number, { range: { start: number; end: number }; sha: string }>();
    await renderProject({
      projectDir: project, outputPath: join(out, `${format}-${concurrency}-${from ?? 0}.${format}`), format, quality: "draft", fps: 10, from, concurrency, binaries,
      signal: new AbortController().signal,
      onSegment: async (segment) => {
        const sha = createHash("sha256").update(await readFile(segment.path)).digest("hex");
        segments.set(segment.index, { range: segment.range, sha });
      },
    });
    return segments;
  }

  it.each(["mp4", "webm"] as const)("%s: the same segment has the same bytes with one browser or two, and in a range render", async (format) => {
    const one = await segmentsOfRender(format, 1);
    const two = await segmentsOfRender(format, 2);
    expect([...one.keys()].sort()).toEqual([0, 1, 2]);
    expect(one.get(0)!.range).toEqual({ start: 0, end: 10 });
    expect(one.get(1)!.range).toEqual({ start: 10, end: 20 });
    expect(one.get(2)!.range).toEqual({ start: 20, end: 30 });
    for (const index of [0, 1, 2]) expect(two.get(index)!.sha).toBe(one.get(index)!.sha);
    // From 1.5 s (frame 15): the first segment is frames 15-19 only; the next is the full render's, byte for byte.
    const range = await segmentsOfRender(format, 2, 1.5);
    expect([...range.keys()].sort()).toEqual([1, 2]);
    expect(range.get(1)!.range).toEqual({ start: 15, end: 20 });
    expect(range.get(1)!.sha).not.toBe(one.get(1)!.sha);
    expect(range.get(2)!.sha).toBe(one.get(2)!.sha);
  });

  it("the joined output holds every frame once, a keyframe at each segment's start", async () => {
    const output = join(out, "mp4-2-0.mp4");
    const streams = await probeStreams(binaries.ffprobe, output);
    expect(streams.find((s) => s.codec_type === "video")!.nb_read_frames).toBe("30");
    const keyframes = await runTool(binaries.ffprobe, [
      "-v", "error", "-select_streams", "v:0", "-skip_frame", "nokey", "-show_entries", "frame=pts_time", "-of", "csv=p=0", output,
    ], new AbortController().signal).done;
    // ffprobe 4.1 ends each row with a comma and follows it with an empty line.
    expect(keyframes.split("\n").filter((line) => line.trim()).map((line) => Number.parseFloat(line))).toEqual([0, 1, 2]);
  });
});
