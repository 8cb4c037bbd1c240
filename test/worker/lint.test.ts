// The linter running inside workerd behind POST .../lint, one seed rule at a time, on files stored in R2.
import { describe, expect, it } from "vitest";
import { buildComposition, canvasCss, GSAP_TAG, timelineScript } from "../../core/lint/test-fixtures.ts";
import { api, json, signIn } from "./helpers.ts";

type Finding = { code: string; severity: string; message: string; file: string; selector?: string; fixHint?: string };
type LintResponse = {
  ok: boolean;
  exitCode: number;
  result: { ok: boolean; errorCount: number; warningCount: number; infoCount: number; findings: Finding[]; filesScanned: number };
};

let counter = 0;
async function lintProjectWith(files: Record<string, string>, body: unknown = {}) {
  const s = await signIn(`lint-${++counter}`);
  const { ["index.html"]: html, ...rest } = files;
  const created = await api(s.token, "POST", "/api/projects", { name: "Lint Me", html, files: rest });
  expect(created.status).toBe(201);
  return { s, res: await json<LintResponse>(await api(s.token, "POST", "/api/projects/lint-me/lint", body)) };
}

const sub = (id: string, inner = "") =>
  `<div data-composition-id="${id}" data-start="1" data-duration="2" data-track-index="1" data-width="1920" data-height="1080" data-composition-src="compositions/${id}.html">${inner}</div>`;

describe("lint endpoint", () => {
  it("passes the starter composition with no errors or warnings, and verbose adds the info summary", async () => {
    const s = await signIn("lint-starter");
    await api(s.token, "POST", "/api/projects", { name: "Starter" });
    const quiet = await json<LintResponse>(await api(s.token, "POST", "/api/projects/starter/lint"));
    expect(quiet).toMatchObject({ ok: true, exitCode: 0, result: { ok: true, errorCount: 0, warningCount: 0, infoCount: 0, findings: [] } });
    expect(quiet.result.filesScanned).toBeGreaterThanOrEqual(1);
    const verbose = await json<LintResponse>(await api(s.token, "POST", "/api/projects/starter/lint", { verbose: true }));
    expect(verbose.result.infoCount).toBeGreaterThan(0);
    expect(verbose.result.findings.every((f) => f.severity === "info")).toBe(true);
  });

  it("rejects a bad body with 400", async () => {
    const s = await signIn("lint-badbody");
    await api(s.token, "POST", "/api/projects", { name: "B" });
    expect((await api(s.token, "POST", "/api/projects/b/lint", { verbose: "yes" })).status).toBe(400);
    expect((await api(s.token, "POST", "/api/projects/b/lint", "{", { "Content-Type": "application/json" })).status).toBe(400);
  });

  // Each case breaks one rule of the seed's section 2 (or one of the extra checks) and names the code it must raise.
  const cases: Array<[string, Record<string, string>, string, "error" | "warning"]> = [
    ["canvas size", { "index.html": buildComposition({ css: canvasCss("demo", 1280, 720) }) }, "canvas_size_mismatch", "error"],
    ["root attributes", { "index.html": buildComposition({ rootAttributes: 'data-composition-id="demo" data-start="0"' }) }, "root_missing_attribute", "error"],
    ["GSAP script missing", { "index.html": buildComposition({ gsapTag: "" }) }, "gsap_missing", "error"],
    ["GSAP version", { "index.html": buildComposition({ gsapTag: GSAP_TAG.replace("3.14.2", "3.12.0") }) }, "gsap_version_mismatch", "warning"],
    ["timeline not paused", { "index.html": buildComposition({ script: timelineScript("demo").replace("{ paused: true }", "{}") }) }, "timeline_not_paused", "error"],
    ["timeline not registered", { "index.html": buildComposition({ script: "const tl = gsap.timeline({ paused: true });" }) }, "timeline_not_registered", "error"],
    ["timeline key without composition", { "index.html": buildComposition({ script: timelineScript("demo") + 'window.__timelines["ghost"] = gsap.timeline({ paused: true });' }) }, "timeline_unknown_id", "error"],
    ["Math.random", { "index.html": buildComposition({ script: timelineScript("demo") + "const r = Math.random();" }) }, "nondeterministic_api", "error"],
    ["Date.now", { "index.html": buildComposition({ script: timelineScript("demo") + "const t = Date.now();" }) }, "nondeterministic_api", "error"],
    ["setTimeout", { "index.html": buildComposition({ script: timelineScript("demo") + "setTimeout(() => {}, 5);" }) }, "nondeterministic_api", "error"],
    ["setInterval", { "index.html": buildComposition({ script: timelineScript("demo") + "setInterval(() => {}, 5);" }) }, "nondeterministic_api", "error"],
    ["fetch", { "index.html": buildComposition({ script: timelineScript("demo") + "fetch('/x');" }) }, "nondeterministic_api", "error"],
    ["unscoped CSS", { "index.html": buildComposition({ css: canvasCss("demo") + " .title { color: red; }" }) }, "css_unscoped_selector", "warning"],
    ["font without display", { "index.html": buildComposition({ head: '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter">' }) }, "font_display_missing", "warning"],
    ["audio attributes", { "index.html": buildComposition({ body: '<audio src="assets/a.mp3"></audio>' }), "assets/a.mp3": "ID3" }, "audio_missing_attribute", "error"],
    ["video not muted", { "index.html": buildComposition({ body: '<video src="assets/v.mp4" data-start="0" data-duration="2" data-track-index="3"></video>' }), "assets/v.mp4": "x" }, "video_not_muted", "warning"],
    ["sub-composition host attributes", { "index.html": buildComposition({ body: '<div data-composition-id="intro" data-composition-src="compositions/intro.html"></div>' }), "compositions/intro.html": '<div data-composition-id="intro" data-width="1920" data-height="1080"></div>' }, "subcomp_missing_timing_attribute", "warning"],
    ["sub-composition host without id", { "index.html": buildComposition({ body: '<div data-composition-src="compositions/intro.html" data-start="0" data-duration="2"></div>' }), "compositions/intro.html": '<div data-composition-id="intro" data-width="1920" data-height="1080"></div>' }, "subcomp_missing_attribute", "error"],
    ["sub-composition file missing", { "index.html": buildComposition({ body: sub("intro") }) }, "subcomp_file_missing", "error"],
    ["sub-composition file empty", { "index.html": buildComposition({ body: sub("intro") }), "compositions/intro.html": "" }, "subcomp_file_empty", "error"],
    ["missing local asset", { "index.html": buildComposition({ body: '<img src="assets/nope.png">' }) }, "asset_missing", "error"],
    ["'..' in an asset path", { "index.html": buildComposition({ body: '<img src="assets/../secret.png">' }) }, "asset_path_parent", "error"],
    ["duplicate element ids", { "index.html": buildComposition({ body: '<p id="x"></p><p id="x"></p>' }) }, "duplicate_element_id", "warning"],
    ["duplicate composition ids", { "index.html": buildComposition({ body: '<div data-composition-id="demo"></div>' }) }, "duplicate_composition_id", "error"],
  ];

  for (const [name, files, code, severity] of cases) {
    it(`reports ${code} (${severity}) for ${name}`, async () => {
      const { res } = await lintProjectWith(files);
      const finding = res.result.findings.find((f) => f.code === code);
      expect(finding, JSON.stringify(res.result.findings)).toBeDefined();
      expect(finding?.severity).toBe(severity);
      expect(finding?.message.length).toBeGreaterThan(10);
      expect(finding?.file).toMatch(/\.html$/);
      expect(res.ok).toBe(res.result.errorCount === 0);
      expect(res.exitCode).toBe(res.ok ? 0 : 1);
      if (severity === "error") expect(res.ok).toBe(false);
    });
  }
});

describe("strict render", () => {
  it("fails at once with the lint errors as log lines, and a non-strict render of the same project starts", async () => {
    const { s } = await lintProjectWith({ "index.html": buildComposition({ script: timelineScript("demo") + "Math.random();" }) });
    const strict = await json<{ status: string; lines: string[] }>(
      await api(s.token, "POST", "/api/projects/lint-me/render?wait=1", { strict: true }),
    );
    expect(strict.status).toBe("failed");
    expect(strict.lines.some((l) => l.startsWith("lint error nondeterministic_api"))).toBe(true);
    const loose = await api(s.token, "POST", "/api/projects/lint-me/render", {});
    expect((await json<{ status: string }>(loose)).status).toBe("queued");
    expect(await (await api(s.token, "DELETE", "/api/projects/lint-me/render")).json()).toEqual({ stopped: true });
  });
});
