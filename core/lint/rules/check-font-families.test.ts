import { describe, expect, it } from "vitest";
import { buildComposition, canvasCss, codesOf, lintFiles } from "../test-fixtures.ts";

const S = `[data-composition-id="demo"]`;
const css = (rules: string) => `${canvasCss("demo")}\n${rules}`;

describe("font family rule", () => {
  it("accepts bundled families, their aliases and generics with no @font-face", () => {
    const rules = `${S} h1 { font-family: "Inter", sans-serif; } ${S} p { font-family: Arial, Helvetica; } ${S} code { font-family: Menlo, monospace; } ${S} em { font-family: system-ui; }`;
    expect(lintFiles({ "index.html": buildComposition({ css: css(rules) }) }).findings).toEqual([]);
  });

  it("errors with font_family_without_font_face for an unknown family, naming it", () => {
    const result = lintFiles({ "index.html": buildComposition({ css: css(`${S} h1 { font-family: 'Zorblax Grotesk', sans-serif; }`) }) });
    expect(codesOf(result)).toEqual(["font_family_without_font_face"]);
    expect(result.findings[0]).toMatchObject({ severity: "error", file: "index.html" });
    expect(result.findings[0]!.message).toContain('"Zorblax Grotesk"');
  });

  it("finds it in a style attribute too", () => {
    const body = `<p style="font-family: &quot;Brand Sans&quot;">x</p>`;
    expect(codesOf(lintFiles({ "index.html": buildComposition({ body }) }))).toEqual(["font_family_without_font_face"]);
  });

  it("accepts a family the project declares with @font-face, or links from Google Fonts", () => {
    const declared = css(`@font-face { font-family: "Zorblax"; src: url(assets/z.woff2); font-display: block; } ${S} h1 { font-family: Zorblax; }`);
    expect(lintFiles({ "index.html": buildComposition({ css: declared }), "assets/z.woff2": 100 }).findings).toEqual([]);
    const head = `<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Rubik+Mono+One&amp;family=Bungee:wght@400&amp;display=swap">`;
    const linked = buildComposition({ head, css: css(`${S} h1 { font-family: "Rubik Mono One"; } ${S} h2 { font-family: Bungee; }`) });
    expect(lintFiles({ "index.html": linked }).findings).toEqual([]);
  });
});
