import { describe, expect, it } from "vitest";
import { parseHtml } from "../../html/parse-html.ts";
import { findRootElement } from "../../composition/find-root-element.ts";
import { choosePosterTime, posterFrame, readPosterTime } from "../../composition/poster-time.ts";
import { buildComposition, codesOf, lintFiles } from "../test-fixtures.ts";

const ROOT = 'data-composition-id="demo" data-start="0" data-duration="6" data-width="1920" data-height="1080"';
const lintRoot = (extra: string) => lintFiles({ "index.html": buildComposition({ rootAttributes: `${ROOT} ${extra}` }) });

describe("data-poster-time", () => {
  it("passes a time within the duration", () => {
    expect(lintRoot('data-poster-time="1.5"').findings).toEqual([]);
    expect(lintRoot('data-poster-time="0"').findings).toEqual([]);
  });

  it("reports root_invalid_poster_time (a warning) for a value that is not seconds within the duration", () => {
    for (const value of ["later", "-1", "6", "9.5", ""]) {
      const result = lintRoot(`data-poster-time="${value}"`);
      expect(codesOf(result)).toEqual(["root_invalid_poster_time"]);
      expect(result.findings[0]!.severity).toBe("warning");
      expect(result.findings[0]!.message).toContain(`data-poster-time="${value}"`);
    }
  });

  it("chooses the declared time, else HyperFrames' paused-preview moment (half of 3 s or less, else 3 s)", () => {
    const root = (attrs: string) => findRootElement(parseHtml(`<div data-composition-id="x" ${attrs}></div>`))!;
    expect(choosePosterTime(readPosterTime(root('data-poster-time="4.25"'), 6), 6)).toBe(4.25);
    expect(choosePosterTime(readPosterTime(root('data-poster-time="7"'), 6), 6)).toBe(3);
    expect(choosePosterTime(readPosterTime(root(""), 6), 6)).toBe(3);
    expect(choosePosterTime(null, 2)).toBe(1);
    // A range render's output shorter than the declared time: the default moment of that output.
    expect(choosePosterTime({ seconds: 5 }, 4)).toBe(3);
    // A range from 0.5 s: the declared 1.25 s is 0.75 s into its output; one before the range, the default moment.
    expect(choosePosterTime({ seconds: 1.25 }, 1, 0.5)).toBe(0.75);
    expect(choosePosterTime({ seconds: 0.25 }, 1, 0.5)).toBe(0.5);
  });

  it("maps a time to the frame shown then", () => {
    expect(posterFrame(3, 30, 180)).toBe(90);
    expect(posterFrame(2.9999999, 30, 180)).toBe(90);
    expect(posterFrame(1.01, 30, 180)).toBe(30);
    expect(posterFrame(99, 30, 180)).toBe(179);
  });
});
