import { describe, expect, it } from "vitest";
import { defaultOf, parseSetting } from "../../worker/config/parse-config.ts";
import { splitPlan, splitThresholds } from "../../worker/renders/split-plan.ts";

describe("splitting a render", () => {
  // The settings as the Worker has them when none is set (worker/config/settings.ts).
  const defaults = { SEGMENT_MIN_FRAMES: defaultOf("SEGMENT_MIN_FRAMES"), SEGMENT_TARGET_FRAMES: defaultOf("SEGMENT_TARGET_FRAMES"), MAX_SEGMENTS: defaultOf("MAX_SEGMENTS") };
  const at30 = splitThresholds(defaults, { fps: { num: 30, den: 1 } });

  it("defaults to 20 s of video before splitting and 10 s segments, at the render's rate", () => {
    expect(at30).toEqual({ minFrames: 600, targetFrames: 300, maxSegments: 64 });
    expect(splitThresholds(defaults, { fps: { num: 30000, den: 1001 } })).toEqual({ minFrames: 599, targetFrames: 300, maxSegments: 64 });
    const set = { SEGMENT_MIN_FRAMES: parseSetting("SEGMENT_MIN_FRAMES", "60"), SEGMENT_TARGET_FRAMES: parseSetting("SEGMENT_TARGET_FRAMES", "30"), MAX_SEGMENTS: parseSetting("MAX_SEGMENTS", "8") };
    expect(splitThresholds(set, { fps: { num: 30, den: 1 } })).toEqual({ minFrames: 60, targetFrames: 30, maxSegments: 8 });
    // A cap below 2 would make "split" mean "whole": like nonsense, it is a configuration error naming the setting.
    expect(() => parseSetting("MAX_SEGMENTS", "1")).toThrow('MAX_SEGMENTS: expected a whole number of segments, at least 2, got "1"');
    expect(() => parseSetting("MAX_SEGMENTS", "lots")).toThrow('MAX_SEGMENTS: expected a whole number of segments, at least 2, got "lots"');
  });

  it("keeps a short render, any GIF and any png-sequence whole", () => {
    expect(splitPlan(600, "mp4", at30)).toEqual([{ index: 0, fromFrame: 0, toFrame: 600 }]);
    expect(splitPlan(6000, "gif", at30)).toEqual([{ index: 0, fromFrame: 0, toFrame: 6000 }]);
    expect(splitPlan(3600, "png-sequence", at30)).toEqual([{ index: 0, fromFrame: 0, toFrame: 3600 }]);
    // Alpha formats split like any video: their segments join with the alpha intact (render-node/test/outputs.test.ts).
    expect(splitPlan(3600, "webm", at30).length).toBeGreaterThan(1);
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
