import { describe, expect, it } from "vitest";
import { buildComposition, codesOf, lintFiles, timelineScript } from "../test-fixtures.ts";

describe("script syntax rule", () => {
  it("accepts modern syntax and module scripts", () => {
    const script = `${timelineScript("demo")}\n const { a = 1, ...rest } = { b: 2 }; const c = rest?.b ?? a; class K { #x = 1; }`;
    expect(lintFiles({ "index.html": buildComposition({ script }) }).findings).toEqual([]);
    const head = '<script type="module">const m = await Promise.resolve(1); export {};</script>';
    expect(lintFiles({ "index.html": buildComposition({ head }) }).findings).toEqual([]);
  });

  it("reports script_syntax_error for quotes that end a string early", () => {
    const script = `${timelineScript("demo")}\n tl.to("[data-composition-id="demo"] .title", { x: 10 });`;
    const result = lintFiles({ "index.html": buildComposition({ script }) });
    expect(codesOf(result)).toEqual(["script_syntax_error"]);
    expect(result.findings[0]?.message).toMatch(/inline <script>: .+\(\d+:\d+\)/);
  });

  it("reports the local script file that fails to parse", () => {
    const result = lintFiles({ "index.html": buildComposition({ head: '<script src="assets/app.js"></script>' }), "assets/app.js": "function ( {" });
    expect(result.findings.map((finding) => [finding.code, finding.file])).toEqual([["script_syntax_error", "assets/app.js"]]);
  });

  it("ignores JSON data blocks", () => {
    expect(lintFiles({ "index.html": buildComposition({ head: '<script type="application/json">{"not": js,}</script>' }) }).findings).toEqual([]);
  });
});
