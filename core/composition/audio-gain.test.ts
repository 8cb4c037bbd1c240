import { describe, expect, it } from "vitest";
import { clampGain, fitFades, MAX_GAIN, readFadeSeconds, readVolume, volumeProblem } from "./audio-gain.ts";
import { envelopeFilter, MAX_ENVELOPE_POINTS, traceEnvelope } from "./volume-envelope.ts";

// data-volume as HyperFrames 0.8.170's mixer plays it: 0 to +12 dB, parseFloat, junk at unity.
describe("data-volume", () => {
  it("plays 0 up to +12 dB (3.981), clamping beyond, junk at 1", () => {
    expect(MAX_GAIN).toBeCloseTo(3.981, 3);
    expect(readVolume("2.5")).toBe(2.5);
    expect(readVolume("9")).toBeCloseTo(3.981, 3);
    expect(readVolume("-1")).toBe(0);
    expect(readVolume("loud")).toBe(1);
    expect(readVolume(null)).toBe(1);
    expect(readVolume("2dB")).toBe(2);
    expect(clampGain(Number.NaN)).toBe(1);
  });

  it("says why a value does not play as written, and nothing for one that does", () => {
    expect(volumeProblem("1.5")).toBeNull();
    expect(volumeProblem("3.98")).toBeNull();
    expect(volumeProblem(null)).toBeNull();
    expect(volumeProblem("9")).toContain("above the +12 dB ceiling (3.981), so it plays at 3.981");
    expect(volumeProblem("-0.5")).toContain("negative");
    expect(volumeProblem("loud")).toContain("not a number");
    expect(volumeProblem("2dB")).toContain("read as 2");
  });
});

describe("fades", () => {
  it("reads positive seconds and shortens overlapping fades in proportion", () => {
    expect(readFadeSeconds("0.5")).toBe(0.5);
    expect(readFadeSeconds("-1")).toBe(0);
    expect(readFadeSeconds("x")).toBe(0);
    expect(fitFades(1, 1, 4)).toEqual({ fadeIn: 1, fadeOut: 1 });
    expect(fitFades(3, 1, 2)).toEqual({ fadeIn: 1.5, fadeOut: 0.5 });
    expect(fitFades(3, 1, null)).toEqual({ fadeIn: 3, fadeOut: 1 });
  });
});

describe("volume envelope", () => {
  const ramp = Array.from({ length: 61 }, (_, i) => ({ time: i / 30, volume: i < 30 ? (1.5 * i) / 30 : 1.5 }));

  it("traces a linear ramp then a hold with its three corners", () => {
    expect(traceEnvelope(ramp)).toEqual([{ time: 0, volume: 0 }, { time: 1, volume: 1.5 }, { time: 2, volume: 1.5 }]);
  });

  it("keeps a curve within 0.005 and never more than the cap", () => {
    const curve = Array.from({ length: 3000 }, (_, i) => ({ time: i / 60, volume: 1 + Math.sin(i / 3) }));
    const traced = traceEnvelope(curve);
    expect(traced.length).toBe(MAX_ENVELOPE_POINTS);
    const eased = Array.from({ length: 31 }, (_, i) => ({ time: i / 30, volume: (i / 30) ** 2 }));
    const fit = traceEnvelope(eased);
    for (const sample of eased) {
      const j = fit.findIndex((p) => p.time >= sample.time);
      const a = fit[Math.max(0, j - 1)]!;
      const b = fit[j]!;
      const line = b.time === a.time ? b.volume : a.volume + ((b.volume - a.volume) * (sample.time - a.time)) / (b.time - a.time);
      expect(Math.abs(line - sample.volume)).toBeLessThanOrEqual(0.005 + 1e-9);
    }
  });

  it("writes the ffmpeg expression: piecewise linear, commas escaped for the filter graph", () => {
    expect(envelopeFilter([{ time: 0, volume: 2 }])).toBe("volume=2");
    expect(envelopeFilter([{ time: 0, volume: 0 }, { time: 1, volume: 1.5 }])).toBe(
      "volume=if(lt(t\\,0)\\,0\\,if(lt(t\\,1)\\,0+(1.5)*(t-0)\\,1.5)):eval=frame",
    );
    expect(envelopeFilter([{ time: 0, volume: 0 }, { time: 1, volume: 1 }], 0.5)).toContain("lt((t+0.5)\\,1)");
  });
});
