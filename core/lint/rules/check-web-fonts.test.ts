import { describe, expect, it } from "vitest";
import { buildComposition, canvasCss, codesOf, lintFiles } from "../test-fixtures.ts";

const GOOGLE = "https://fonts.googleapis.com/css2?family=Inter:wght@400;700";

describe("web font rule", () => {
  it("accepts a font link with display=swap", () => {
    const head = `<link rel="preconnect" href="https://fonts.gstatic.com"><link rel="stylesheet" href="${GOOGLE}&amp;display=swap">`;
    expect(lintFiles({ "index.html": buildComposition({ head }) }).findings).toEqual([]);
  });

  it("warns with font_display_missing for a link without display=", () => {
    const result = lintFiles({ "index.html": buildComposition({ head: `<link rel="stylesheet" href="${GOOGLE}">` }) });
    expect(codesOf(result)).toEqual(["font_display_missing"]);
    expect(result.findings[0]?.fixHint).toContain("display=swap");
  });

  it("warns for an @import without display=", () => {
    const css = `@import url("${GOOGLE}");\n${canvasCss("demo")}`;
    expect(codesOf(lintFiles({ "index.html": buildComposition({ css }) }))).toEqual(["font_display_missing"]);
    const good = `@import url("${GOOGLE}&display=swap");\n${canvasCss("demo")}`;
    expect(lintFiles({ "index.html": buildComposition({ css: good }) }).findings).toEqual([]);
  });

  it("warns for an @font-face without font-display", () => {
    const css = `${canvasCss("demo")}\n@font-face { font-family: Brand; src: url(assets/brand.woff2); }`;
    expect(codesOf(lintFiles({ "index.html": buildComposition({ css }), "assets/brand.woff2": 2000 }))).toEqual(["font_display_missing"]);
  });
});
