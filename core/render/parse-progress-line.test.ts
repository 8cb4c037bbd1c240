import { expect, it } from "vitest";
import { parseProgressLine } from "./parse-progress-line.ts";

it("reads frame, total, percent, fps and ETA from a progress line", () => {
  expect(parseProgressLine("frame 120/180 (67%), 14.2 fps, ETA 4 s")).toEqual({ frame: 120, total: 180, percent: 67, fps: 14.2, etaSeconds: 4 });
});

it("derives the percent when the line has none, and ignores other lines", () => {
  expect(parseProgressLine("frame 45/180")).toEqual({ frame: 45, total: 180, percent: 25, fps: null, etaSeconds: null });
  expect(parseProgressLine("encoding chunk 2 of 2")).toBeNull();
  expect(parseProgressLine("frame 9/0")).toBeNull();
});
