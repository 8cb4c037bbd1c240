import { describe, expect, it } from "vitest";
import { buildComposition, canvasCss, codesOf, lintFiles } from "../test-fixtures.ts";

const withCss = (extra: string) => lintFiles({ "index.html": buildComposition({ css: `${canvasCss("demo")}\n${extra}` }) });

describe("CSS wall-clock animation rule", () => {
  it("accepts keyframes that no rule plays and explicit none", () => {
    expect(withCss('@keyframes pulse { to { opacity: 0 } } [data-composition-id="demo"] .a { animation: none; transition: none; }').findings).toEqual([]);
  });

  it("warns with css_wall_clock_animation for animation and transition", () => {
    const result = withCss('[data-composition-id="demo"] .a { animation: pulse 2s infinite; }');
    expect(codesOf(result)).toEqual(["css_wall_clock_animation"]);
    expect(result.findings[0]).toMatchObject({ severity: "warning", selector: '[data-composition-id="demo"] .a' });
    expect(codesOf(withCss('[data-composition-id="demo"] .b { transition: opacity 0.3s ease; }'))).toEqual(["css_wall_clock_animation"]);
  });

  it("checks inline styles too", () => {
    const result = lintFiles({ "index.html": buildComposition({ body: '<div class="spin" style="animation: spin 1s linear infinite"></div>' }) });
    expect(codesOf(result)).toEqual(["css_wall_clock_animation"]);
  });
});
