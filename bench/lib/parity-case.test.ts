// A case's parity.json decides what both renderers are asked for: a misread file would compare two renders of the
// wrong thing and still print figures, so each shape (plain, variables, batch, format) and each refusal is pinned.
import { describe, expect, it } from "vitest";
import { hasAlpha, MAX_BATCH_ROWS, parseCaseOptions } from "./parity-case.ts";

describe("parseCaseOptions", () => {
  it("is one plain mp4 render without a file", () => {
    expect(parseCaseOptions(null)).toEqual({ format: "mp4", runs: [undefined], batch: false, expected: [] });
    expect(parseCaseOptions("{}")).toEqual({ format: "mp4", runs: [undefined], batch: false, expected: [] });
  });

  it("gives render-time variables to one render, batch rows to one render each", () => {
    expect(parseCaseOptions('{"variables":{"title":"Q4"},"format":"webm"}')).toEqual({ format: "webm", runs: [{ title: "Q4" }], batch: false, expected: [] });
    const batch = parseCaseOptions('{"batch":[{"a":1},{"a":2},{"a":3}]}');
    expect(batch.batch).toBe(true);
    expect(batch.runs).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
  });

  it("refuses what it cannot honour on both sides", () => {
    expect(() => parseCaseOptions("{")).toThrow(/not JSON/);
    expect(() => parseCaseOptions("[]")).toThrow(/give an object/);
    expect(() => parseCaseOptions('{"fps":30}')).toThrow(/unknown key fps/);
    expect(() => parseCaseOptions('{"format":"gif"}')).toThrow(/format is one of/);
    expect(() => parseCaseOptions('{"variables":{},"batch":[{}]}')).toThrow(/not both/);
    expect(() => parseCaseOptions('{"variables":[1]}')).toThrow(/object of values/);
    expect(() => parseCaseOptions('{"batch":[]}')).toThrow(/1 to/);
    expect(() => parseCaseOptions(JSON.stringify({ batch: Array.from({ length: MAX_BATCH_ROWS + 1 }, () => ({})) }))).toThrow(/1 to/);
    expect(() => parseCaseOptions('{"batch":[{},2]}')).toThrow(/row 1 is not an object/);
  });

  it("compares alpha for webm and mov only", () => {
    expect(["mp4", "webm", "mov"].map((f) => hasAlpha(f as "mp4"))).toEqual([false, true, true]);
  });
});
