import { describe, expect, it } from "vitest";
import { buildComposition, canvasCss, codesOf, lintFiles } from "../test-fixtures.ts";

const withBody = (body: string, extra: Record<string, string | number> = {}) =>
  lintFiles({ "index.html": buildComposition({ body }), "assets/logo.png": 1200, "assets/bg.jpg": 3000, ...extra });

describe("asset path rules", () => {
  it("accepts existing project files in src, style url() and CSS url()", () => {
    const css = `${canvasCss("demo")}\n[data-composition-id="demo"] .bg { background: url("assets/bg.jpg"); }`;
    const html = buildComposition({ css, body: '<img src="./assets/logo.png?v=2" alt=""><div style="background-image:url(assets/bg.jpg)"></div><img src="data:image/png;base64,AAAA">' });
    expect(lintFiles({ "index.html": html, "assets/logo.png": 1200, "assets/bg.jpg": 3000 }).findings).toEqual([]);
  });

  it("reports asset_missing for a src that is not in the project", () => {
    const result = withBody('<img src="assets/missing.png">');
    expect(codesOf(result)).toEqual(["asset_missing"]);
    expect(result.findings[0]).toMatchObject({ severity: "error", selector: 'img[src="assets/missing.png"]' });
  });

  it("reports asset_missing for url() in CSS and in local stylesheets, relative to the stylesheet", () => {
    const css = `${canvasCss("demo")}\n[data-composition-id="demo"] .x { background: url(assets/nope.jpg); }`;
    expect(codesOf(lintFiles({ "index.html": buildComposition({ css }) }))).toEqual(["asset_missing"]);
    const head = '<link rel="stylesheet" href="assets/style.css">';
    const good = lintFiles({ "index.html": buildComposition({ head }), "assets/style.css": '[data-composition-id="demo"] .x { background: url(bg.jpg); }', "assets/bg.jpg": 10 });
    expect(good.findings).toEqual([]);
    const bad = lintFiles({ "index.html": buildComposition({ head }), "assets/style.css": '[data-composition-id="demo"] .x { background: url(gone.jpg); }' });
    expect(bad.findings.map((finding) => [finding.code, finding.file])).toEqual([["asset_missing", "assets/style.css"]]);
  });

  it("reports asset_path_parent for paths with ..", () => {
    expect(codesOf(withBody('<img src="../secret/logo.png">'))).toEqual(["asset_path_parent"]);
    expect(codesOf(withBody('<img src="assets/../../x.png">'))).toEqual(["asset_path_parent"]);
  });

  it("warns with asset_path_absolute for paths starting with /", () => {
    const result = withBody('<img src="/assets/logo.png">');
    expect(codesOf(result)).toEqual(["asset_path_absolute"]);
    expect(result.findings[0]?.fixHint).toContain('"assets/logo.png"');
  });

  it("warns with remote_resource for files on other hosts, but not for fonts", () => {
    expect(codesOf(withBody('<img src="https://example.com/logo.png">'))).toEqual(["remote_resource"]);
    expect(withBody('<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter&display=swap">').findings).toEqual([]);
  });

  it("does not warn about HyperFrames' shader-transition library, which renders answer with their own", () => {
    expect(codesOf(withBody('<script src="https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions/dist/index.global.js"></script>'))).toEqual([]);
    expect(codesOf(withBody('<script src="https://cdn.jsdelivr.net/npm/@hyperframes/other/dist/index.global.js"></script>'))).toEqual(["remote_resource"]);
  });

  it("does not treat links that load nothing as assets", () => {
    expect(withBody('<a href="missing.html">x</a><link rel="preconnect" href="https://cdn.example.com">').findings).toEqual([]);
  });
});
