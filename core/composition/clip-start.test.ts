import { describe, expect, it } from "vitest";
import { describeStartProblem, findStartProblems, parseClipStart, readMediaOffset, referencedStart } from "./clip-start.ts";

// data-start as HyperFrames 0.8.170's parser reads it (its dist, parsers/compositionContract): seconds, or a clip
// id, optionally plus or minus a plain decimal offset.
describe("parseClipStart", () => {
  it("reads seconds, blank and absent", () => {
    expect(parseClipStart("2.5")).toEqual({ kind: "absolute", value: 2.5 });
    expect(parseClipStart(" -1 ")).toEqual({ kind: "absolute", value: -1 });
    expect(parseClipStart("1e1")).toEqual({ kind: "absolute", value: 10 });
    expect(parseClipStart(null)).toEqual({ kind: "none" });
    expect(parseClipStart("  ")).toEqual({ kind: "none" });
  });

  it("reads a bare id as the end of that clip", () => {
    expect(parseClipStart("intro")).toEqual({ kind: "reference", refId: "intro", offset: 0 });
    expect(parseClipStart("scene.1:a_b")).toEqual({ kind: "reference", refId: "scene.1:a_b", offset: 0 });
  });

  it("reads an id plus or minus seconds, with or without spaces", () => {
    expect(parseClipStart("intro + 2")).toEqual({ kind: "reference", refId: "intro", offset: 2 });
    expect(parseClipStart("intro+0.5")).toEqual({ kind: "reference", refId: "intro", offset: 0.5 });
    expect(parseClipStart("intro - .25")).toEqual({ kind: "reference", refId: "intro", offset: -0.25 });
    expect(parseClipStart("intro -1.5")).toEqual({ kind: "reference", refId: "intro", offset: -1.5 });
  });

  it("takes intro-2 (no spaces) as the id intro-2, as HyperFrames does, since - is an id character", () => {
    expect(parseClipStart("intro-2")).toEqual({ kind: "reference", refId: "intro-2", offset: 0 });
  });

  it("refuses what is neither", () => {
    for (const raw of ["intro + ", "intro + 2s", "intro * 2", "+ 2", "intro + 1e2", "intro + -2", "intro + 1.", "my clip + 1", "a+1+2"]) {
      expect(parseClipStart(raw), raw).toEqual({ kind: "invalid", raw: raw.trim() });
    }
  });
});

describe("referencedStart", () => {
  it("is the referenced clip's end plus the offset, never below 0", () => {
    expect(referencedStart(1, 2, 0.5)).toBe(3.5);
    expect(referencedStart(1, 2, -0.5)).toBe(2.5);
    expect(referencedStart(0, 1, -3)).toBe(0);
    expect(referencedStart(2, null, 1)).toBe(3);
  });
});

describe("findStartProblems", () => {
  const known = (ids: string[]) => (id: string) => ids.includes(id);

  it("finds nothing in a chain of references", () => {
    const clips = [{ id: "a", raw: "0" }, { id: "b", raw: "a + 1" }, { id: "c", raw: "b" }];
    expect(findStartProblems(clips, known(["a", "b", "c"]))).toEqual([]);
  });

  it("names a reference to an id no element has, and unreadable text", () => {
    const problems = findStartProblems([{ id: "b", raw: "nope + 1" }, { id: null, raw: "a * 2" }], known(["b"]));
    expect(problems).toEqual([{ id: "b", kind: "unknown-reference", raw: "nope + 1" }, { id: null, kind: "invalid", raw: "a * 2" }]);
    expect(describeStartProblem(problems[0]!)).toContain('#b has data-start="nope + 1", but no element has that id');
  });

  it("reports a cycle once, with its path, and a self-reference", () => {
    const clips = [{ id: "a", raw: "c" }, { id: "b", raw: "a + 1" }, { id: "c", raw: "b - 1" }, { id: "d", raw: "a" }, { id: "e", raw: "e" }];
    const problems = findStartProblems(clips, known(["a", "b", "c", "d", "e"]));
    expect(problems).toEqual([
      { id: "a", kind: "cycle", raw: "c", path: ["a", "c", "b", "a"] },
      { id: "e", kind: "cycle", raw: "e", path: ["e", "e"] },
    ]);
    expect(describeStartProblem(problems[0]!)).toContain("#a → #c → #b → #a");
  });
});

describe("readMediaOffset", () => {
  const attrs = (values: Record<string, string>) => (name: string) => values[name] ?? null;
  it("prefers data-playback-start, then data-media-start, ignoring negatives and junk", () => {
    expect(readMediaOffset(attrs({ "data-playback-start": "1.4", "data-media-start": "0.2" }))).toBe(1.4);
    expect(readMediaOffset(attrs({ "data-media-start": "0.2" }))).toBe(0.2);
    expect(readMediaOffset(attrs({ "data-playback-start": "-1", "data-media-start": "0.2" }))).toBe(0.2);
    expect(readMediaOffset(attrs({ "data-playback-start": "x" }))).toBe(0);
    expect(readMediaOffset(attrs({}))).toBe(0);
  });
});
