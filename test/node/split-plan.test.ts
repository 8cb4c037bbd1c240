import { describe, expect, it } from "vitest";
import { splitPlan, splitThresholds } from "../../worker/renders/split-plan.ts";

describe("splitting a render", () => {
  const at30 = splitThresholds({}, { fps: { num: 30, den: 1 } });

  it("defaults to 20 s of video before splitting and 10 s segments, at the render's rate", () => {
    expect(at30).toEqual({ minFrames: 600, targetFrames: 300, maxSegments: 64 });
    expect(splitThresholds({}, { fps: { num: 30000, den: 1001 } })).toEqual({ minFrames: 599, targetFrames: 300, maxSegments: 64 });
    expect(splitThresholds({ SEGMENT_MIN_FRAMES: "60", SEGMENT_TARGET_FRAMES: "30", MAX_SEGMENTS: "8" }, { fps: { num: 30, den: 1 } })).toEqual({ minFrames: 60, targetFrames: 30, maxSegments: 8 });
    // A cap below 2 would make "split" mean "whole"; nonsense values fall back to the default.
    expect(splitThresholds({ MAX_SEGMENTS: "1" }, { fps: { num: 30, den: 1 } }).maxSegments).toBe(2);
    expect(splitThresholds({ MAX_SEGMENTS: "lots" }, { fps: { num: 30, den: 1 } }).maxSegments).toBe(64);
  });

  it("keeps a short render and any GIF whole", () => {
    expect(splitPlan(600, "mp4", at30)).toEqual([{ index: 0, fromFrame: 0, toFrame: 600 }]);
    expect(splitPlan(6000, "gif", at30)).toEqual([{ index: 0, fromFrame: 0, toFrame: 6000 }]);
  });

  it("covers every frame exactly once in segments equal to within one frame", () => {
    const segments = splitPlan(1801, "mp4", at30);
    expect(segments).toHaveLength(6);
    expect(segments[0]!.fromFrame).toBe(0);
    expect(segments.at(-1)!.toFrame).toBe(1801);
    for (let i = 1; i < segments.length; i++) expect(segments[i]!.fromFrame).toBe(segments[i - 1]!.toFrame);
    const sizes = segments.map((s) => s.toFrame - s.fromFrame);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it("never makes more than maxSegments segments: an hour of video gets 64 longer segments, still covering every frame", () => {
    const hour = 3600 * 30;
    const segments = splitPlan(hour, "mp4", at30);
    expect(segments).toHaveLength(64);
    expect(segments.at(-1)!.toFrame).toBe(hour);
    expect(segments.reduce((n, s) => n + s.toFrame - s.fromFrame, 0)).toBe(hour);
    expect(splitPlan(hour, "mp4", { ...at30, maxSegments: 4 }).map((s) => s.toFrame - s.fromFrame)).toEqual([27000, 27000, 27000, 27000]);
  });
});
