import { describe, expect, it } from "vitest";
import { buildComposition, canvasCss, codesOf, lintFiles } from "../test-fixtures.ts";

const withCss = (extra: string) => lintFiles({ "index.html": buildComposition({ css: `${canvasCss("demo")}\n${extra}` }) });

describe("CSS scope rule", () => {
  it("accepts scoped rules in every quoting style, page-level rules and at-rules", () => {
    const css = `
      [data-composition-id=demo] .a { color: red; }
      [data-composition-id='demo'] .b, [data-composition-id="demo"] .c { color: red; }
      html body [data-composition-id="demo"] h1 { margin: 0; }
      *, *::before, *::after { box-sizing: border-box; }
      :root { --accent: #f0f; }
      @keyframes spin { from { transform: rotate(0); } to { transform: rotate(360deg); } }
      @font-face { font-family: X; src: url(assets/x.woff2); font-display: swap; }
      @media (min-width: 100px) { [data-composition-id="demo"] .d { color: blue; } }`;
    expect(lintFiles({ "index.html": buildComposition({ css: `${canvasCss("demo")}\n${css}` }), "assets/x.woff2": 100 }).findings).toEqual([]);
  });

  it("warns with css_unscoped_selector for a bare class rule", () => {
    const result = withCss(".title { color: red; }");
    expect(codesOf(result)).toEqual(["css_unscoped_selector"]);
    expect(result.findings[0]?.selector).toBe(".title");
    expect(result.findings[0]?.fixHint).toContain('[data-composition-id="demo"] .title');
  });

  it("finds unscoped rules inside @media and mixed selector lists", () => {
    expect(codesOf(withCss("@media (min-width: 1px) { h1 { color: red; } }"))).toEqual(["css_unscoped_selector"]);
    expect(withCss('[data-composition-id="demo"] .a, .b { color: red; }').findings[0]?.message).toContain('".b"');
  });

  it("ignores selectors that only appear in comments", () => {
    expect(withCss("/* .title { color: red; } */").findings).toEqual([]);
  });
});
