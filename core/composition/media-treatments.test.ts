// The pure readers of HyperFrames' media treatments: what a value means (defaults, clamping, curves, a LUT's
// quantized table) and what is named as not rendered, as HyperFrames reads the same values.
import { describe, expect, it } from "vitest";
import { parseAutomation } from "./audio-automation.ts";
import { parseFxChain } from "./audio-fx-chain.ts";
import { fxFilters, fxTailSeconds } from "./audio-fx-filters.ts";
import { parseColorGrading, withOverrides } from "./color-grading.ts";
import { parseCube } from "./cube-lut.ts";

describe("data-fx-chain", () => {
  it("defaults and clamps parameters, skips disabled nodes and names what it leaves out", () => {
    const chain = parseFxChain(JSON.stringify({ version: 1, nodes: [
      { type: "lowpass", params: { frequency: 50, poles: "1" } }, { type: "gain", enabled: false }, { type: "reverb" },
      { type: "delay", params: { feedback: 0.5, mix: "0.6" } },
    ] }));
    expect(chain.effects).toEqual([
      { type: "lowpass", params: { frequency: 100, q: 0.707, poles: 1 } },
      { type: "delay", params: { time: 250, feedback: 0.5, mix: 0.6 } },
    ]);
    expect(chain.unsupported).toEqual(["reverb"]);
    // Echoes until 0.5^k falls under -60 dB: 10 of them, 2.5 s of ring.
    expect(fxTailSeconds(chain.effects)).toBeCloseTo(2.5, 6);
    expect(fxFilters(chain.effects)[1]).toMatch(/^aecho=in_gain=0\.4:out_gain=1:delays=250\|500\|.*\|2500:decays=0\.6\|0\.3\|/);
  });
  it("refuses what HyperFrames refuses", () => {
    expect(parseFxChain("{").problem).toMatch(/^not valid JSON/);
    expect(parseFxChain('{"version":2,"nodes":[]}').problem).toBe("version 2, not 1");
    expect(parseFxChain('{"version":1,"nodes":[{"type":"wah"}]}').problem).toBe("node 0 has an unknown effect type: wah");
  });
});

describe("data-automation", () => {
  it("traces a volume lane from the clip's start to its end, a curve sampled 30 times a second, and names an effect lane", () => {
    const parsed = parseAutomation(JSON.stringify({ version: 1, lanes: [
      { target: "volume", points: [{ t: 0.5, v: 9 }, { t: 0.6, v: 0, curve: 0.5 }, { t: 0.7, v: 1 }] },
      { target: "rate", points: [{ t: 0, v: 2 }] },
      { target: "fx.lp.frequency", points: [{ t: 0, v: 400 }] },
    ] }), 1);
    const volume = parsed.volume!;
    expect(volume[0]).toEqual({ time: 0, volume: 10 ** (12 / 20) });
    expect(volume.at(-1)).toEqual({ time: 1, volume: 1 });
    // 0.6 to 0.7 with curve 0.5: x^2, three samples (0.1 s at 30 a second, rounded up).
    expect(volume.filter((p) => p.time > 0.6 && p.time < 0.7).map((p) => Number(p.volume.toFixed(4)))).toEqual([0.1111, 0.4444]);
    expect(parsed.rate).toEqual([{ t: 0, v: 2, curve: 0 }]);
    expect(parsed.unsupported).toEqual(["the effect lane fx.lp.frequency"]);
  });
});

describe("data-color-grading", () => {
  it("lets the payload's adjustments win over the preset's, clamped, and names the preset's vignette", () => {
    const { grade, unsupported } = parseColorGrading('{"preset":"night-lift","adjust":{"exposure":5,"contrast":-0.5}}');
    expect(grade!.adjust).toMatchObject({ exposure: 2, contrast: -0.5, shadows: 0.2 });
    expect(grade!.intensity).toBe(1);
    expect(unsupported).toEqual(["the night-lift preset's look beyond its colour (its vignette)"]);
    expect(parseColorGrading("creator-camcorder").grade!.intensity).toBe(0.72);
    expect(parseColorGrading('{"enabled":false,"preset":"mono-clean"}').grade).toBeNull();
  });
  it("takes the animated --hf-color-grading-* values over the payload's, clamped; unset or junk ones leave it", () => {
    const { grade } = parseColorGrading('{"intensity":0.5,"adjust":{"exposure":0.2},"lut":"a.cube"}');
    const css: Record<string, string> = { "--hf-color-grading-intensity": " 1.5", "--hf-color-grading-exposure": "-3", "--hf-color-grading-lut-intensity": "x" };
    const animated = withOverrides(grade!, (property) => css[property] ?? "");
    expect([animated.intensity, animated.adjust.exposure, animated.lut]).toEqual([1, -2, { src: "a.cube", intensity: 1 }]);
    expect(withOverrides(grade!, () => "")).toEqual(grade);
  });
});

describe(".cube LUTs", () => {
  it("reads a table red-fastest, quantized to 8 bits, with its domain", () => {
    const cube = parseCube("TITLE \"t\"\n# comment\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 1 2\nLUT_3D_SIZE 2\n0.1 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1.5\n");
    expect(cube.problem).toBeNull();
    expect(cube.lut!.domainMax).toEqual([1, 1, 2]);
    expect(cube.lut!.table[0]).toBeCloseTo(26 / 255, 6);
    expect(cube.lut!.table[23]).toBe(1);
  });
  it("refuses 1D LUTs, missing rows and data before the size", () => {
    expect(parseCube("LUT_1D_SIZE 4\n").problem).toMatch(/1D LUTs/);
    expect(parseCube("LUT_3D_SIZE 2\n0 0 0\n").problem).toBe("expected 8 rows for size 2, found 1");
    expect(parseCube("0 0 0\n").problem).toBe("line 1: LUT data before LUT_3D_SIZE");
  });
});
