import { describe, expect, it } from "vitest";
import { buildComposition, buildSubComposition, canvasCss, lintFiles } from "../test-fixtures.ts";

const sized = (width: number, height: number, extra = 'data-duration="6"') =>
  lintFiles({
    "index.html": buildComposition({
      rootAttributes: `data-composition-id="demo" data-start="0" ${extra} data-width="${width}" data-height="${height}"`,
      css: canvasCss("demo", width, height),
    }),
  });

describe("root_over_limit", () => {
  it("accepts 4K landscape and portrait, and DCI 4K", () => {
    expect(sized(3840, 2160).findings).toEqual([]);
    expect(sized(2160, 3840).findings).toEqual([]);
    expect(sized(4096, 2160).findings).toEqual([]);
  });

  it("is an error naming the attribute, its value and the maximum", () => {
    const result = sized(100000, 100000);
    expect(result.ok).toBe(false);
    expect(result.findings.map((f) => f.code)).toEqual(["root_over_limit", "root_over_limit"]);
    expect(result.findings[0]).toMatchObject({
      severity: "error",
      file: "index.html",
      message: 'The root element\'s data-width="100000" is over the maximum of 4096 pixels per side.',
      fixHint: expect.stringContaining('data-width="3840" data-height="2160"'),
    });
    expect(result.findings[1]?.message).toContain('data-height="100000" is over the maximum of 4096');
    expect(sized(4096, 4096).findings.map((f) => f.message)).toEqual([
      'The root element\'s data-width="4096" x data-height="4096" is 16,777,216 pixels, over the maximum of 8,847,360 (4096x2160).',
    ]);
  });

  it("reports a rate, a length and a frame count over their maxima", () => {
    expect(sized(1920, 1080, 'data-duration="6" data-fps="240"').findings.map((f) => f.message)).toEqual(['The root element\'s data-fps="240" is over the maximum of 120 fps.']);
    expect(sized(1920, 1080, 'data-duration="7200"').findings.map((f) => f.message)).toEqual(['The root element\'s data-duration="7200" is over the maximum of 3600 s.']);
    expect(sized(1920, 1080, 'data-duration="3600" data-fps="120"').findings.map((f) => f.message)).toEqual([
      'The root element\'s data-duration="3600" at 120 fps is 432,000 frames, over the maximum of 216,000 frames.',
    ]);
  });

  it("holds a sub-composition file's root to the same canvas limits", () => {
    const host = '<div data-composition-id="intro" data-composition-src="compositions/intro.html" data-start="0" data-duration="3" data-track-index="1" data-width="1920" data-height="1080"></div>';
    const big = buildSubComposition("intro").replace('data-width="1920"', 'data-width="50000"');
    const result = lintFiles({ "index.html": buildComposition({ body: host }), "compositions/intro.html": big });
    expect(result.findings.map((f) => [f.code, f.file])).toEqual([["root_over_limit", "compositions/intro.html"]]);
  });
});
