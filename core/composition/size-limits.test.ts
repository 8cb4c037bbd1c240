import { describe, expect, it } from "vitest";
import { GIF_DEFAULTS, MAX_FPS, parseRenderOptions, RESOLUTIONS } from "../render/render-options.ts";
import { renderRate } from "../render/render-rate.ts";
import { COMPOSITION_LIMITS, describeLimitProblems, findLimitProblems, readCompositionSize, readFpsRate, readLimitNumber, type RootSize } from "./size-limits.ts";

const root = (attributes: string) => `<html><body><div id="root" data-composition-id="demo" ${attributes}></div></body></html>`;
const problemsOf = (attributes: string, rate?: { fps: number; source: string }) => {
  const size = readCompositionSize(root(attributes));
  if (!size) throw new Error("no root");
  return findLimitProblems(size, rate).map((p) => p.message);
};

describe("composition size limits", () => {
  it("keeps 4K possible both ways round, DCI 4K too, and an hour at 60 fps", () => {
    for (const [w, h] of [[3840, 2160], [2160, 3840], [4096, 2160], [2160, 4096], [1920, 1080], [2974, 2974]]) {
      expect(problemsOf(`data-width="${w}" data-height="${h}" data-duration="3600" data-fps="60"`)).toEqual([]);
    }
    expect(problemsOf('data-width="1920" data-height="1080" data-duration="1800" data-fps="120"')).toEqual([]);
  });

  it("names the attribute, its value and the maximum for a side, the area, the rate, the length and the frames", () => {
    expect(problemsOf('data-width="100000" data-height="100000"')).toEqual([
      'data-width="100000" is over the maximum of 4096 pixels per side',
      'data-height="100000" is over the maximum of 4096 pixels per side',
    ]);
    expect(problemsOf('data-width="4096" data-height="4096"')).toEqual([
      'data-width="4096" x data-height="4096" is 16,777,216 pixels, over the maximum of 8,847,360 (4096x2160)',
    ]);
    expect(problemsOf('data-width="4097" data-height="100"')).toEqual(['data-width="4097" is over the maximum of 4096 pixels per side']);
    expect(problemsOf('data-fps="240"')).toEqual(['data-fps="240" is over the maximum of 120 fps']);
    expect(problemsOf('data-duration="3601"')).toEqual(['data-duration="3601" is over the maximum of 3600 s']);
    expect(problemsOf('data-duration="3600" data-fps="120"')).toEqual([
      'data-duration="3600" at 120 fps is 432,000 frames, over the maximum of 216,000 frames',
    ]);
    expect(problemsOf('data-duration="1800"', { fps: 121, source: "the fps option" })).toEqual([
      'data-duration="1800" at 121 fps (the fps option) is 217,800 frames, over the maximum of 216,000 frames',
    ]);
  });

  it("reads every spelling the page runtime or the linter would read, so none slips past", () => {
    expect(problemsOf('data-width="1e5" data-height="1080"')).toEqual(['data-width="1e5" is over the maximum of 4096 pixels per side']);
    expect(problemsOf('data-width="100000px" data-height="1080"')).toHaveLength(1);
    expect(problemsOf('data-width=" 0x186A0 " data-height="1080"')).toHaveLength(1);
    expect(problemsOf('data-duration="7200s"')).toHaveLength(1);
    expect(problemsOf('data-fps="240000/1000"')).toEqual(['data-fps="240000/1000" is over the maximum of 120 fps']);
    expect(readLimitNumber("Infinity")).toBeNull();
    expect(readLimitNumber("wide")).toBeNull();
    expect(readFpsRate("30000/1001")).toBeCloseTo(29.97, 2);
    expect(readFpsRate("1/0")).toBeNull();
  });

  it("says nothing of what is absent, malformed or small (other lint rules report those)", () => {
    expect(problemsOf("")).toEqual([]);
    expect(problemsOf('data-width="wide" data-height="-5" data-duration="six" data-fps="fast"')).toEqual([]);
    expect(readCompositionSize("<p>no root</p>")).toBeNull();
  });

  it("names a runtime value without attribute text by its number", () => {
    const size: RootSize = { width: 5000, height: 100, duration: null, fps: null, texts: {} };
    expect(findLimitProblems(size).map((p) => p.message)).toEqual(["data-width 5000 is over the maximum of 4096 pixels per side"]);
    expect(describeLimitProblems("index.html", findLimitProblems(size))).toBe(
      "index.html is over the studio's limits: data-width 5000 is over the maximum of 4096 pixels per side",
    );
  });

  it("bounds the render options by the same limits: every resolution preset, the GIF default and the fps option", () => {
    for (const { width, height } of Object.values(RESOLUTIONS)) {
      expect(findLimitProblems({ width, height, duration: null, fps: null, texts: {} })).toEqual([]);
    }
    expect(GIF_DEFAULTS.width).toBeLessThanOrEqual(COMPOSITION_LIMITS.maxSide);
    expect(MAX_FPS).toBe(COMPOSITION_LIMITS.maxFps);
    expect(parseRenderOptions({ fps: COMPOSITION_LIMITS.maxFps + 1 }).ok).toBe(false);
    expect(parseRenderOptions({ fps: "121/1" }).ok).toBe(false);
  });

  it("counts frames at the rate a render settles on: the option, else a valid data-fps, else 30 (a GIF: 15 or a lower data-fps)", () => {
    const mp4 = (fps: number | string | null) => ({ fps, format: "mp4" as const });
    expect(renderRate(mp4(60), 24)).toEqual({ fps: 60, source: "the fps option" });
    expect(renderRate(mp4("30000/1001"), null).fps).toBeCloseTo(29.97, 2);
    expect(renderRate(mp4(null), 24)).toEqual({ fps: 24, source: "data-fps" });
    expect(renderRate(mp4(null), 240)).toEqual({ fps: 30, source: "the default" });
    expect(renderRate({ fps: null, format: "gif" }, 60)).toEqual({ fps: 15, source: "a GIF's default" });
    expect(renderRate({ fps: null, format: "gif" }, 10)).toEqual({ fps: 10, source: "data-fps" });
  });
});
