import { describe, expect, it } from "vitest";
import { LINT_RULES } from "./lint-rules.ts";
import { buildComposition, buildSubComposition, codesOf, lintFiles } from "./test-fixtures.ts";

describe("lintProject", () => {
  it("reports nothing for a clean composition and says ok", () => {
    const result = lintFiles({ "index.html": buildComposition() });
    expect(result).toEqual({ ok: true, errorCount: 0, warningCount: 0, infoCount: 0, findings: [], filesScanned: 1 });
  });

  it("adds info findings and counts them only when verbose", () => {
    const files = { "index.html": buildComposition() };
    const quiet = lintFiles(files);
    const verbose = lintFiles(files, { verbose: true });
    expect(quiet.infoCount).toBe(0);
    expect(verbose.infoCount).toBe(1);
    expect(verbose.findings).toEqual([
      expect.objectContaining({ code: "composition_summary", severity: "info", file: "index.html", message: expect.stringContaining("duration 6 s, 1920x1080, 1 timeline") }),
    ]);
    expect(verbose.ok).toBe(true);
  });

  it("counts errors and warnings separately and fails ok on an error", () => {
    const html = buildComposition({ css: "html, body { width: 1920px; height: 1080px; overflow: hidden; } .title { color: red; }", script: "const tl = gsap.timeline({ paused: true }); window.__timelines = {}; window.__timelines.demo = tl; tl.call(() => Math.random());" });
    const result = lintFiles({ "index.html": html });
    expect(codesOf(result)).toEqual(["css_unscoped_selector", "nondeterministic_api"]);
    expect(result.errorCount).toBe(1);
    expect(result.warningCount).toBe(1);
    expect(result.ok).toBe(false);
  });

  it("stays ok with warnings only", () => {
    const result = lintFiles({ "index.html": buildComposition({ body: '<p id="a"></p><p id="a"></p>' }) });
    expect(result.warningCount).toBe(1);
    expect(result.ok).toBe(true);
  });

  it("reports a missing or empty entry", () => {
    expect(codesOf(lintFiles({ "other.html": buildComposition() }))).toEqual(["entry_missing"]);
    expect(codesOf(lintFiles({ "index.html": "" }))).toEqual(["entry_missing"]);
    expect(lintFiles({}).ok).toBe(false);
  });

  it("lints a different entry when asked", () => {
    const result = lintFiles({ "scene.html": buildComposition(), "index.html": "" }, {}, "scene.html");
    expect(result.findings).toEqual([]);
  });

  it("scans sub-compositions and stray compositions/*.html and counts them", () => {
    const host = '<div data-composition-id="intro" data-composition-src="compositions/intro.html" data-start="0" data-duration="3" data-track-index="1" data-width="1920" data-height="1080"></div>';
    const result = lintFiles({
      "index.html": buildComposition({ body: host }),
      "compositions/intro.html": buildSubComposition("intro"),
      "compositions/extra.html": buildSubComposition("extra", "<script>setInterval(() => {}, 10)</script>"),
    });
    expect(result.filesScanned).toBe(3);
    expect(result.findings.map((finding) => [finding.code, finding.file])).toEqual([["nondeterministic_api", "compositions/extra.html"]]);
  });

  it("gives every finding a message and a fix hint", () => {
    const result = lintFiles({ "index.html": "<html><body><video src=\"x.mp4\"></video></body></html>" }, { verbose: true });
    expect(result.findings.length).toBeGreaterThan(2);
    for (const finding of result.findings) {
      expect(finding.message.length).toBeGreaterThan(10);
      expect(finding.fixHint?.length ?? 0).toBeGreaterThan(5);
    }
  });
});

describe("LINT_RULES", () => {
  it("lists each code once with a severity and a summary", () => {
    const codes = LINT_RULES.map((rule) => rule.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const rule of LINT_RULES) {
      expect(rule.code).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
      expect(["error", "warning", "info"]).toContain(rule.severity);
      expect(rule.summary.length).toBeGreaterThan(10);
    }
  });
});
