import { describe, expect, it } from "vitest";
import { buildComposition, codesOf, lintFiles } from "../test-fixtures.ts";

const scoped = '[data-composition-id="demo"] .title { color: white; }';
const lintCss = (css: string, rootAttributes?: string) =>
  lintFiles({ "index.html": buildComposition(rootAttributes === undefined ? { css } : { css, rootAttributes }) });

describe("canvas rules", () => {
  it("accepts html, body sized to the canvas, and equivalent forms", () => {
    expect(lintCss(`html, body { width: 1920px; height: 1080px; overflow: hidden; } ${scoped}`).findings).toEqual([]);
    expect(lintCss(`html { width: 1920px !important; height: 1080px; } body { overflow-x: hidden; overflow-y: hidden; } ${scoped}`).findings).toEqual([]);
    expect(lintCss(`:root { overflow: clip; } body { width: 100vw; height: 100%; } ${scoped}`).findings).toEqual([]);
  });

  it("reports canvas_size_missing when no width/height is set", () => {
    const result = lintCss(`html, body { margin: 0; overflow: hidden; } ${scoped}`);
    expect(codesOf(result)).toEqual(["canvas_size_missing"]);
    expect(result.findings[0]?.fixHint).toContain("width: 1920px; height: 1080px; overflow: hidden;");
  });

  it("reports canvas_size_mismatch when CSS disagrees with data-width/data-height", () => {
    expect(codesOf(lintCss(`html, body { width: 1280px; height: 720px; overflow: hidden; } ${scoped}`))).toEqual(["canvas_size_mismatch"]);
  });

  it("uses data-width/data-height as the canvas, so portrait works", () => {
    const portrait = 'data-composition-id="demo" data-start="0" data-duration="6" data-width="1080" data-height="1920"';
    expect(lintCss(`html, body { width: 1080px; height: 1920px; overflow: hidden; } ${scoped}`, portrait).findings).toEqual([]);
    expect(codesOf(lintCss(`html, body { width: 1920px; height: 1080px; overflow: hidden; } ${scoped}`, portrait))).toEqual(["canvas_size_mismatch"]);
  });

  it("reports canvas_overflow_visible without overflow: hidden", () => {
    expect(codesOf(lintCss(`html, body { width: 1920px; height: 1080px; } ${scoped}`))).toEqual(["canvas_overflow_visible"]);
  });

  it("reads inline style on body", () => {
    const html = buildComposition({ css: scoped }).replace("<body>", '<body style="width:1920px;height:1080px;overflow:hidden">');
    expect(lintFiles({ "index.html": html }).findings).toEqual([]);
  });
});
