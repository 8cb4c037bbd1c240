// A speed ramp's map from clip time to source time, as HyperFrames plays data-automation's rate lane: constant
// speeds, a geometric blend between points, a curve, the edges before the first point and past the last, the inverse,
// and the quarter-second slices the mix stretches.
import { describe, expect, it } from "vitest";
import { parseAutomation } from "./audio-automation.ts";
import { clipSecondsAt, rampSlices, rateAt, sourceSecondsAt, type RatePoint } from "./speed-ramp.ts";

const lane = (...points: [number, number, number?][]): RatePoint[] => points.map(([t, v, curve]) => ({ t, v, curve: curve ?? 0 }));

describe("rateAt", () => {
  it("holds the first speed before the first point and the last after the last, blending geometrically between", () => {
    const ramp = lane([0.5, 1], [1.5, 4]);
    expect([rateAt(ramp, 0), rateAt(ramp, 0.5), rateAt(ramp, 1.5), rateAt(ramp, 9)]).toEqual([1, 1, 4, 4]);
    // Halfway from 1 to 4 on a log scale is 2, not 2.5.
    expect(rateAt(ramp, 1)).toBeCloseTo(2, 12);
  });
  it("shapes a segment by its first point's curve, x^(2^(2·curve))", () => {
    // curve 0.5: x², so halfway is a quarter of the way on the log scale: 4^0.25.
    expect(rateAt(lane([0, 1, 0.5], [1, 4]), 0.5)).toBeCloseTo(Math.SQRT2, 12);
  });
});

describe("sourceSecondsAt", () => {
  it("is speed × time for one point, and runs on at its speed both ways", () => {
    const ramp = lane([0, 2]);
    expect([sourceSecondsAt(ramp, 0), sourceSecondsAt(ramp, 0.75), sourceSecondsAt(ramp, 3)]).toEqual([0, 1.5, 6]);
    expect(sourceSecondsAt(ramp, -0.5)).toBe(-1);
  });
  it("integrates a ramp: the exact integral within the trapezoids' error, the last speed past the last point", () => {
    const ramp = lane([0, 1], [1, 4]);
    // ∫₀¹ 4^u du = 3 / ln 4.
    const whole = 3 / Math.log(4);
    expect(sourceSecondsAt(ramp, 1)).toBeCloseTo(whole, 3);
    expect(sourceSecondsAt(ramp, 0.5)).toBeCloseTo(1 / Math.log(4), 3);
    expect(sourceSecondsAt(ramp, 2) - sourceSecondsAt(ramp, 1)).toBeCloseTo(4, 12);
  });
  it("plays the first speed from the clip's start to the first point", () => {
    const ramp = lane([0.5, 2], [1, 1]);
    expect(sourceSecondsAt(ramp, 0.25)).toBeCloseTo(0.5, 12);
    expect(sourceSecondsAt(ramp, 0.5)).toBeCloseTo(1, 12);
    // Then 2 → 1 over half a second: ∫ = 0.5 · (2 − 1) / ln 2.
    expect(sourceSecondsAt(ramp, 1)).toBeCloseTo(1 + 0.5 / Math.log(2), 3);
  });
  it("only grows, and clipSecondsAt undoes it", () => {
    const ramp = lane([0, 0.25, -0.8], [0.4, 6], [1.2, 0.1, 0.6], [2, 3]);
    let before = -Infinity;
    for (let t = 0; t <= 3; t += 0.01) {
      const s = sourceSecondsAt(ramp, t);
      expect(s).toBeGreaterThan(before);
      expect(clipSecondsAt(ramp, s)).toBeCloseTo(t, 9);
      before = s;
    }
  });
});

describe("rampSlices", () => {
  it("cuts the clip into even slices of about a quarter second, each the source between its edges", () => {
    const ramp = lane([0, 1], [1, 4]);
    const slices = rampSlices(ramp, 0.9);
    expect(slices.map((s) => s.seconds)).toEqual([0.225, 0.225, 0.225, 0.225]);
    expect(slices[0]!.from).toBe(0);
    expect(slices[3]!.to).toBeCloseTo(sourceSecondsAt(ramp, 0.9), 12);
    for (let k = 1; k < slices.length; k++) expect(slices[k]!.from).toBe(slices[k - 1]!.to);
    // Each faster than the one before.
    const speeds = slices.map((s) => (s.to - s.from) / s.seconds);
    expect(speeds).toEqual([...speeds].sort((a, b) => a - b));
    expect(rampSlices(ramp, 600)).toHaveLength(240);
  });
});

describe("data-automation's rate lane", () => {
  it("is read as HyperFrames reads it: speeds clamped to 0.1–10, points sorted, the first lane with a point counts", () => {
    const parsed = parseAutomation(JSON.stringify({ version: 1, lanes: [
      { target: "rate", points: [] },
      { target: "rate", points: [{ t: 1, v: 40 }, { t: "0", v: "0", curve: 3 }, { t: 2, v: "x" }] },
      { target: "rate", points: [{ t: 0, v: 5 }] },
    ] }), null);
    expect(parsed.rate).toEqual([{ t: 0, v: 0.1, curve: 1 }, { t: 1, v: 10, curve: 0 }]);
    expect(parsed.unsupported).toEqual([]);
  });
  it("still names effect-parameter lanes and a curve drawn through viaX/viaY, which the studio does not render", () => {
    const parsed = parseAutomation(JSON.stringify({ version: 1, lanes: [
      { target: "rate", points: [{ t: 0, v: 1, viaX: 0.2, viaY: 0.8 }, { t: 1, v: 2 }] },
      { target: "fx.lp.frequency", points: [{ t: 0, v: 400 }] },
      { target: "fx.preset.radio", points: [{ t: 0, v: 1 }] },
    ] }), null);
    expect(parsed.rate).toHaveLength(2);
    expect(parsed.unsupported).toEqual([
      "the speed lane's curves through viaX/viaY", "the effect lane fx.lp.frequency", "the effect lane fx.preset.radio",
    ]);
  });
});
