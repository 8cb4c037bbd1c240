// A case's expected difference (parity.json `expected`) excuses one check only while both renderers still measure
// the figures it records: the figures of start-references, where HyperFrames sounds a tone to the end of the
// composition and ours stops it at its data-duration. Either side moving fails the check again, saying which.
import { describe, expect, it } from "vitest";
import { judge, parseRate } from "./parity-compare.ts";
import { parseCaseOptions } from "./parity-case.ts";
import { applyExpected, MAX_WITHIN, parseExpected } from "./parity-expected.ts";

const REASON = "HyperFrames sounds the tone to the end of the composition; ours stops it at its data-duration";
const entry = { check: "audio mean level", hyperframes: -26.3, ours: -29.3, within: 0.3, reason: REASON };
const shape = { rate: parseRate("30/1"), frames: 60, width: 64, height: 36 };
const checksFor = (hyperframesDb: number, oursDb: number) =>
  judge({ reference: shape, candidate: shape, mads: [0.4] }, { reference: { meanDb: hyperframesDb, peakDb: -21.1, onset: 0.8 }, candidate: { meanDb: oursDb, peakDb: -21.1, onset: 0.8 } });
const meanLevel = (checks: ReturnType<typeof applyExpected>) => checks.find((c) => c.name === "audio mean level")!;

describe("applyExpected", () => {
  it("passes the check while both sides measure their recorded figures, and leaves the other checks alone", () => {
    const plain = checksFor(-26.3, -29.3);
    expect(meanLevel(plain).pass).toBe(false);
    const checks = applyExpected(plain, [entry]);
    expect(meanLevel(checks)).toMatchObject({ pass: true, expected: true });
    expect(meanLevel(checks).detail).toContain(REASON);
    expect(checks.filter((c) => c.name !== "audio mean level")).toEqual(plain.filter((c) => c.name !== "audio mean level"));
    expect(applyExpected(checksFor(-26.1, -29.5), [entry]).every((c) => c.pass)).toBe(true);
  });

  it("fails it, naming the side, when HyperFrames or ours moves: fixed upstream, or changed here", () => {
    const fixedUpstream = meanLevel(applyExpected(checksFor(-29.3, -29.3), [entry]));
    expect(fixedUpstream.pass).toBe(false);
    expect(fixedUpstream.detail).toContain("HyperFrames measured -29.30, recorded -26.30");
    const changedHere = meanLevel(applyExpected(checksFor(-26.3, -26.3), [entry]));
    expect(changedHere.pass).toBe(false);
    expect(changedHere.detail).toContain("ours measured -26.30, recorded -29.30");
  });

  it("fails an entry naming no check of the render, or a check without a figure of each side", () => {
    const checks = applyExpected(checksFor(-26.3, -29.3), [entry, { ...entry, check: "audio echo" }]);
    expect(checks.at(-1)).toMatchObject({ name: "expected audio echo", pass: false });
    const frames = applyExpected(checksFor(-26.3, -29.3), [{ ...entry, check: "frames max MAD" }]).find((c) => c.name === "frames max MAD")!;
    expect(frames.pass).toBe(false);
    expect(frames.detail).toMatch(/needs a figure of each side/);
  });

  it("gives the level checks and the onset the figures of each side", () => {
    const checks = checksFor(-26.3, -29.3);
    expect(checks.filter((c) => c.figures).map((c) => c.name)).toEqual(["audio mean level", "audio peak level", "audio onset"]);
    expect(meanLevel(checks).figures).toEqual({ reference: -26.3, candidate: -29.3 });
  });
});

describe("parseExpected", () => {
  it("reads a case's entries through parity.json, and none without", () => {
    expect(parseCaseOptions(JSON.stringify({ expected: [entry] })).expected).toEqual([entry]);
    expect(parseExpected(undefined, "p")).toEqual([]);
  });

  it("refuses an entry that could excuse more than one recorded difference, or excuse it without a reason", () => {
    const bad = (patch: Record<string, unknown>) => () => parseExpected([{ ...entry, ...patch }], "p");
    expect(() => parseExpected([], "p")).toThrow(/list of differences/);
    expect(bad({ within: MAX_WITHIN + 0.1 })).toThrow(/within is a tolerance/);
    expect(bad({ within: 0 })).toThrow(/within is a tolerance/);
    expect(bad({ ours: "-29" })).toThrow(/ours is the figure/);
    expect(bad({ reason: "known" })).toThrow(/reason says why/);
    expect(bad({ check: "" })).toThrow(/check names/);
    expect(bad({ goal: 3 })).toThrow(/unknown key goal/);
    expect(() => parseExpected([entry, entry], "p")).toThrow(/expected twice/);
  });
});
