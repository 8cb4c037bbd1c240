import { describe, expect, it } from "vitest";
import { atempoFactors, playbackRateProblem, readPlaybackRate } from "./playback-rate.ts";

describe("readPlaybackRate", () => {
  it("reads data-playback-rate as HyperFrames does: parseFloat, 1 for junk or non-positive, clamped to 0.1–10", () => {
    expect([null, "", "fast", "0", "-2"].map(readPlaybackRate)).toEqual([1, 1, 1, 1, 1]);
    expect(["2", "0.5", "1.25", "2x"].map(readPlaybackRate)).toEqual([2, 0.5, 1.25, 2]);
    expect(["0.01", "40"].map(readPlaybackRate)).toEqual([0.1, 10]);
  });
  it("says why a value does not play as written", () => {
    expect(playbackRateProblem("1.5")).toBeNull();
    expect(playbackRateProblem(null)).toBeNull();
    expect(playbackRateProblem("fast")).toContain("not a number");
    expect(playbackRateProblem("2x")).toContain("read as 2");
    expect(playbackRateProblem("0")).toContain("not above 0");
    expect(playbackRateProblem("40")).toContain("plays at 10");
  });
});

describe("atempoFactors", () => {
  it("splits a rate into factors of 0.5–2 whose product is the rate", () => {
    expect(atempoFactors(1)).toEqual([]);
    expect(atempoFactors(1.5)).toEqual([1.5]);
    expect(atempoFactors(10)).toEqual([2, 2, 2, 1.25]);
    const slow = atempoFactors(0.1);
    expect(slow.every((f) => f >= 0.5 && f <= 2)).toBe(true);
    expect(slow.reduce((a, b) => a * b, 1)).toBeCloseTo(0.1, 9);
  });
});
