import { describe, expect, it } from "vitest";
import { timePastEnd } from "./browser-options.ts";
import { contactSheetLayout } from "./contact-sheet-layout.ts";
import { checkTimes, lastFrameTime, snapshotFileName, snapshotTimes } from "./sample-times.ts";

describe("snapshot times", () => {
  const cases: Array<[string, number, Parameters<typeof snapshotTimes>[1], Array<[number, boolean]>]> = [
    ["default: 5 evenly spaced from 0, plus the end frame", 6, {}, [[0, false], [1.2, false], [2.4, false], [3.6, false], [4.8, false], [5.967, true]]],
    ["frames: 2", 4, { frames: 2 }, [[0, false], [2, false], [3.967, true]]],
    ["end: false drops the end frame", 4, { frames: 2, end: false }, [[0, false], [2, false]]],
    ["at is exact and keeps the end frame", 6, { at: [0.25, 3] }, [[0.25, false], [3, false], [5.967, true]]],
    ["at with end: false", 6, { at: [1], end: false }, [[1, false]]],
  ];
  for (const [name, duration, options, expected] of cases) {
    it(name, () => expect(snapshotTimes(duration, options).map((t) => [t.time, t.end])).toEqual(expected));
  }

  it("the end frame is the last frame a 30 fps render captures", () => {
    expect(lastFrameTime(2)).toBeCloseTo(59 / 30, 9);
    expect(lastFrameTime(0.01)).toBe(0);
  });

  it("names files by index and time, marking the end frame", () => {
    expect(snapshotFileName(0, { time: 1.5, end: false })).toBe("snapshots/frame-01-1.500s.png");
    expect(snapshotFileName(11, { time: 5.967, end: true })).toBe("snapshots/frame-12-end-5.967s.png");
  });
});

describe("check sample times", () => {
  it("takes midpoints of equal slices (default 9), or `at` as given", () => {
    expect(checkTimes(9, {})).toEqual([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5]);
    expect(checkTimes(2, { samples: 2 })).toEqual([0.5, 1.5]);
    expect(checkTimes(2, { samples: 2, at: [0.1] })).toEqual([0.1]);
  });

  it("names the first time past the end", () => {
    expect(timePastEnd([1, 7, 8], 6)).toBe("invalid at.1: 7 s is past the end of the composition (6 s)");
    expect(timePastEnd([6], 6)).toBeNull();
    expect(timePastEnd(undefined, 6)).toBeNull();
  });
});

describe("contact sheet layout", () => {
  it("puts up to 4 thumbnails of 480 px a row, rows by count, height by aspect", () => {
    expect(contactSheetLayout(1, 1920, 1080)).toEqual({ columns: 1, rows: 1, thumbWidth: 480, thumbHeight: 270, width: 496, height: 322 });
    expect(contactSheetLayout(6, 1920, 1080)).toMatchObject({ columns: 4, rows: 2, width: 4 * 480 + 5 * 8, height: 2 * (270 + 36) + 3 * 8 });
    expect(contactSheetLayout(9, 1080, 1920)).toMatchObject({ columns: 4, rows: 3, thumbHeight: 853 });
  });
});
