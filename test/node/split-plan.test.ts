import { describe, expect, it } from "vitest";
import { defaultOf, parseSetting } from "../../worker/config/parse-config.ts";
import { decideSplit, farmModel, frameRanges, onFixedSegments, secondsPerFrame, splitSeconds, type SplitInput } from "../../worker/renders/split-plan.ts";
import { countFreeNodes } from "../../worker/renders/farm/free-node-count.ts";

describe("splitting a render: when it finishes sooner with the nodes free", () => {
  // The model as the Worker has it when nothing is set (worker/config/settings.ts): bench/segments.ts's figures.
  const model = farmModel({
    SEGMENT_OVERHEAD_MS: defaultOf("SEGMENT_OVERHEAD_MS"),
    NODE_FRAMES_PER_SECOND: defaultOf("NODE_FRAMES_PER_SECOND"),
    JOIN_MS_PER_VIDEO_SECOND: defaultOf("JOIN_MS_PER_VIDEO_SECOND"),
    MAX_SEGMENTS: defaultOf("MAX_SEGMENTS"),
  });
  const hd = (seconds: number, freeNodes: number, format: SplitInput["format"] = "mp4"): SplitInput => ({
    frames: seconds * 30, durationSeconds: seconds, width: 1920, height: 1080, format, freeNodes,
  });
  const counts = (input: SplitInput) => decideSplit(input, model).segments.length;

  it("reads the measured costs from the settings", () => {
    expect(model).toEqual({ segmentOverheadS: 3, framesPerSecond1080p: 15, joinPerVideoSecondS: 0.075, maxSegments: 64 });
    const set = farmModel({
      SEGMENT_OVERHEAD_MS: parseSetting("SEGMENT_OVERHEAD_MS", "1500"),
      NODE_FRAMES_PER_SECOND: parseSetting("NODE_FRAMES_PER_SECOND", "2.5"),
      JOIN_MS_PER_VIDEO_SECOND: parseSetting("JOIN_MS_PER_VIDEO_SECOND", "100"),
      MAX_SEGMENTS: parseSetting("MAX_SEGMENTS", "8"),
    });
    expect(set).toEqual({ segmentOverheadS: 1.5, framesPerSecond1080p: 2.5, joinPerVideoSecondS: 0.1, maxSegments: 8 });
    expect(() => parseSetting("MAX_SEGMENTS", "1")).toThrow('MAX_SEGMENTS: expected a whole number of segments, at least 2, got "1"');
    expect(() => parseSetting("NODE_FRAMES_PER_SECOND", "fast")).toThrow('NODE_FRAMES_PER_SECOND: expected a positive number of frames per second, got "fast"');
  });

  it("the issue's case: a 20 s 1080p render goes to three idle nodes (about 18 s instead of 40 s), and stays whole with one", () => {
    const three = decideSplit(hd(20, 3), model);
    expect(three.segments).toEqual([
      { index: 0, fromFrame: 0, toFrame: 200 },
      { index: 1, fromFrame: 200, toFrame: 400 },
      { index: 2, fromFrame: 400, toFrame: 600 },
    ]);
    expect(three.wholeS).toBeCloseTo(40, 5);
    expect(three.splitS).toBeCloseTo(3 + 200 / 15 + 20 * 0.075, 5);
    expect(three.whole).toBeUndefined();
    expect(decideSplit(hd(20, 1), model)).toMatchObject({ segments: [{ index: 0, fromFrame: 0, toFrame: 600 }], whole: "one free node" });
    // Even an hour stays whole with no other node to share it: a split would only add its overhead and the join.
    expect(decideSplit(hd(3600, 1), model).whole).toBe("one free node");
  });

  it("keeps a render whole when no split finishes sooner, and any GIF or png-sequence", () => {
    // 1 s: 2 s whole; a segment shorter than its own 3 s overhead is not made.
    expect(decideSplit(hd(1, 8), model)).toMatchObject({ whole: "too short", wholeS: 2 });
    // 3 s on two nodes: 3 + 3 + 0.2 s split against 6 s whole.
    expect(decideSplit(hd(3, 2), model)).toMatchObject({ whole: "not sooner" });
    expect(decideSplit(hd(600, 8, "gif"), model)).toMatchObject({ whole: "gif", segments: [{ index: 0, fromFrame: 0, toFrame: 18000 }] });
    expect(decideSplit(hd(120, 8, "png-sequence"), model)).toMatchObject({ whole: "png-sequence", segments: [{ index: 0, fromFrame: 0, toFrame: 3600 }] });
    // Alpha formats split like any video: their segments join with the alpha intact (render-node/test/outputs.test.ts).
    expect(counts(hd(20, 3, "webm"))).toBe(3);
    expect(counts(hd(5, 3))).toBe(3); // 10 s whole, about 6.7 s split
  });

  it("splits only when the estimate is sooner, over a sweep of lengths and free nodes", () => {
    for (const seconds of [1, 2, 3, 4, 5, 8, 13, 20, 60, 600]) {
      for (const free of [1, 2, 3, 8, 64, 200]) {
        const input = hd(seconds, free);
        const d = decideSplit(input, model);
        if (d.segments.length === 1) continue;
        expect(d.splitS, `${seconds} s on ${free}`).toBeLessThan(d.wholeS);
        expect(d.splitS).toBeCloseTo(splitSeconds(input, d.segments.length, model), 9);
        expect(d.segments.length).toBeLessThanOrEqual(Math.min(free, 64));
        // No segment captures for less time than its fixed cost.
        const shortest = Math.min(...d.segments.map((s) => s.toFrame - s.fromFrame));
        expect(shortest * secondsPerFrame(input, model)).toBeGreaterThanOrEqual(model.segmentOverheadS - secondsPerFrame(input, model));
      }
    }
  });

  it("uses every free node a long render can use, up to MAX_SEGMENTS; segments cover every frame once, equal within a frame", () => {
    expect(counts(hd(20, 64))).toBe(13); // 40 s whole: 13 segments of about 3 s capture each
    expect(counts(hd(3600, 200))).toBe(64);
    const segments = decideSplit({ ...hd(60, 7), frames: 1801 }, model).segments;
    expect(segments).toHaveLength(7);
    expect(segments[0]!.fromFrame).toBe(0);
    expect(segments.at(-1)!.toFrame).toBe(1801);
    for (let i = 1; i < segments.length; i++) expect(segments[i]!.fromFrame).toBe(segments[i - 1]!.toFrame);
    const sizes = segments.map((s) => s.toFrame - s.fromFrame);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it("moves a split's cuts onto the fixed one-second segments of the composition's clock, a range render's too", () => {
    const cuts = (frames: number, count: number, firstFrame: number) =>
      onFixedSegments(frameRanges(frames, count), { num: 30, den: 1 }, firstFrame).map((s) => [s.fromFrame, s.toFrame]);
    // 60 s at 30 fps on 7 nodes: every cut on a multiple of 30 frames, every frame once.
    expect(cuts(1800, 7, 0)).toEqual([[0, 270], [270, 510], [510, 780], [780, 1020], [1020, 1290], [1290, 1530], [1530, 1800]]);
    // A range render from frame 45: the output's cuts sit at composition frames 30k, so output frames 30k - 45.
    expect(cuts(600, 3, 45)).toEqual([[0, 195], [195, 405], [405, 600]]);
    // A cut that lands where another did is dropped, never an empty segment.
    expect(cuts(45, 3, 0)).toEqual([[0, 30], [30, 45]]);
  });

  it("counts a smaller frame as faster, in proportion to its pixels but never below 7 % of a 1080p frame", () => {
    expect(secondsPerFrame({ width: 1920, height: 1080 }, model)).toBeCloseTo(1 / 15, 9);
    expect(secondsPerFrame({ width: 3840, height: 2160 }, model)).toBeCloseTo(4 / 15, 9);
    expect(secondsPerFrame({ width: 960, height: 540 }, model)).toBeCloseTo(0.25 / 15, 9);
    expect(secondsPerFrame({ width: 320, height: 180 }, model)).toBeCloseTo(0.07 / 15, 9);
    // 20 s at 320x180 is 2.8 s whole at the default rate: not worth a split; 4K is split across what is free.
    expect(counts({ ...hd(20, 3), width: 320, height: 180 })).toBe(1);
    expect(counts({ ...hd(20, 3), width: 3840, height: 2160 })).toBe(3);
  });
});

describe("counting the free nodes", () => {
  it("counts the planning node and the idle ones; with containers, the instances not busy when that is more", () => {
    expect(countFreeNodes(0, null)).toEqual({ count: 1, said: "1 free node (this one; no other waiting for work)" });
    expect(countFreeNodes(2, null)).toEqual({ count: 3, said: "3 free nodes (this one and 2 waiting for work)" });
    expect(countFreeNodes(0, { max: 8, busy: 3 })).toEqual({ count: 5, said: "5 free nodes (container instances: 8 at most, 3 busy with other render work)" });
    // Idle nodes beyond the headroom (nodes not run as containers, or a cap lowered since): what is seen counts.
    expect(countFreeNodes(4, { max: 8, busy: 7 }).count).toBe(5);
    expect(countFreeNodes(0, { max: 8, busy: 8 }).count).toBe(1);
  });
});
