import { describe, expect, it } from "vitest";
import { buildComposition, buildSubComposition, codesOf, lintFiles } from "../test-fixtures.ts";

const lintRoot = (rootAttributes: string) => lintFiles({ "index.html": buildComposition({ rootAttributes }) });

describe("root element rules", () => {
  it("passes a complete root", () => {
    expect(lintRoot('data-composition-id="demo" data-start="0" data-duration="6" data-width="1920" data-height="1080"').findings).toEqual([]);
  });

  it("reports root_missing when no element carries data-composition-id", () => {
    const result = lintFiles({ "index.html": buildComposition({ rootAttributes: 'data-start="0"', script: "" }) });
    expect(codesOf(result)).toEqual(["root_missing"]);
  });

  it("reports a missing data-duration with root_missing_attribute, a missing data-start only as a studio rule", () => {
    const result = lintRoot('data-composition-id="demo" data-width="1920" data-height="1080"');
    expect(codesOf(result)).toEqual(["root_missing_attribute", "root_missing_start"]);
    expect(result.findings.map((finding) => [finding.code, finding.severity, finding.fixHint])).toEqual([
      ["root_missing_start", "warning", expect.stringContaining('data-start="0"')],
      ["root_missing_attribute", "error", expect.stringContaining('data-duration="6"')],
    ]);
    expect(result.findings[0]!.message).toMatch(/^studio rule: .*starts at 0/);
  });

  it("reports root_start_not_zero", () => {
    expect(codesOf(lintRoot('data-composition-id="demo" data-start="2" data-duration="6" data-width="1920" data-height="1080"'))).toEqual(["root_start_not_zero"]);
  });

  it("reports root_invalid_duration for zero, negative and non-numeric durations", () => {
    for (const duration of ["0", "-3", "six", ""]) {
      expect(codesOf(lintRoot(`data-composition-id="demo" data-start="0" data-duration="${duration}" data-width="1920" data-height="1080"`))).toEqual(["root_invalid_duration"]);
    }
    expect(lintRoot('data-composition-id="demo" data-start="0" data-duration="2.5" data-width="1920" data-height="1080"').findings).toEqual([]);
  });

  it("reports root_invalid_size", () => {
    expect(codesOf(lintRoot('data-composition-id="demo" data-start="0" data-duration="6" data-width="wide" data-height="1080"'))).toEqual(["root_invalid_size"]);
  });

  it("does not require timing attributes on a sub-composition root, only its size", () => {
    const host = '<div data-composition-id="intro" data-composition-src="compositions/intro.html" data-start="0" data-duration="3" data-track-index="1" data-width="1920" data-height="1080"></div>';
    const good = lintFiles({ "index.html": buildComposition({ body: host }), "compositions/intro.html": buildSubComposition("intro") });
    expect(good.findings).toEqual([]);
    const bad = lintFiles({ "index.html": buildComposition({ body: host }), "compositions/intro.html": buildSubComposition("intro").replace(' data-width="1920"', "") });
    expect(bad.findings.map((finding) => [finding.code, finding.file])).toEqual([["root_missing_attribute", "compositions/intro.html"]]);
  });
});
