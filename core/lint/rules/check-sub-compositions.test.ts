import { describe, expect, it } from "vitest";
import { buildComposition, buildSubComposition, codesOf, lintFiles } from "../test-fixtures.ts";

const FULL = 'data-composition-id="intro" data-composition-src="compositions/intro.html" data-start="0" data-duration="3" data-track-index="1" data-width="1920" data-height="1080"';
const project = (hostAttributes: string, files: Record<string, string | number> = { "compositions/intro.html": buildSubComposition("intro") }, tag = "div") =>
  lintFiles({ "index.html": buildComposition({ body: `<${tag} ${hostAttributes}></${tag}>` }), ...files });

describe("sub-composition rules", () => {
  it("accepts a complete host whose file exists with the same id", () => {
    expect(project(FULL).findings).toEqual([]);
  });

  it("only warns, as a studio rule, for a host without data-start or data-duration (it renders the same)", () => {
    const result = project(FULL.replace(' data-start="0"', "").replace(' data-duration="3"', ""));
    expect(codesOf(result)).toEqual(["subcomp_missing_timing_attribute"]);
    expect(result.findings[0]).toMatchObject({ severity: "warning", message: expect.stringMatching(/^studio rule: .*data-start, data-duration/) });
  });

  it("reports subcomp_missing_attribute (an error, as HyperFrames' host_missing_composition_id) for a host without an id", () => {
    const result = project(FULL.replace('data-composition-id="intro" ', ""));
    expect(codesOf(result)).toContain("subcomp_missing_attribute");
    expect(result.findings.find((f) => f.code === "subcomp_missing_attribute")).toMatchObject({ severity: "error", message: expect.stringContaining("data-composition-id") });
  });

  it("says nothing of a sub-composition's own <html>/<body> wrapper (HyperFrames' skill writes them): only the entry is the page", () => {
    const wrapped = `<!doctype html><html><head><meta charset="UTF-8" /></head><body>${buildSubComposition("intro")}</body></html>`;
    expect(project(FULL, { "compositions/intro.html": wrapped }).findings).toEqual([]);
  });

  it("says nothing of a still sub-composition that makes no timeline (nothing to seek), but reports one that makes one unregistered", () => {
    const still = `<template><div data-composition-id="intro" data-width="1920" data-height="1080"><p class="line">Sub</p></div></template>`;
    expect(project(FULL, { "compositions/intro.html": still }).findings).toEqual([]);
    const unregistered = still.replace("</template>", "<script>const sub = gsap.timeline({ paused: true });</script></template>");
    expect(codesOf(project(FULL, { "compositions/intro.html": unregistered }))).toEqual(["timeline_not_registered"]);
  });

  it("warns with subcomp_missing_layout_attribute for missing track and size", () => {
    expect(codesOf(project(FULL.replace(' data-track-index="1"', "")))).toEqual(["subcomp_missing_layout_attribute"]);
  });

  it("warns with subcomp_host_not_div", () => {
    expect(codesOf(project(FULL, undefined, "section"))).toEqual(["subcomp_host_not_div"]);
  });

  it("warns with subcomp_src_outside_compositions", () => {
    const result = project(FULL.replace("compositions/intro.html", "scenes/intro.html"), { "scenes/intro.html": buildSubComposition("intro") });
    expect(codesOf(result)).toEqual(["subcomp_src_outside_compositions"]);
  });

  it("reports subcomp_file_missing", () => {
    const result = project(FULL, {});
    expect(codesOf(result)).toEqual(["subcomp_file_missing"]);
    expect(result.findings[0]).toMatchObject({ severity: "error", file: "index.html", selector: 'div[data-composition-id="intro"]' });
  });

  it("reports subcomp_file_empty for a zero-byte or blank file", () => {
    expect(codesOf(project(FULL, { "compositions/intro.html": "" }))).toEqual(["subcomp_file_empty"]);
    expect(codesOf(project(FULL, { "compositions/intro.html": "  \n" }))).toEqual(["subcomp_file_empty"]);
  });

  it("reports subcomp_id_mismatch", () => {
    const result = project(FULL, { "compositions/intro.html": buildSubComposition("opening") });
    expect(codesOf(result)).toEqual(["subcomp_id_mismatch"]);
  });

  it("lints the sub-composition file itself under its own path", () => {
    const result = project(FULL, { "compositions/intro.html": buildSubComposition("intro", "<script>fetch('x')</script>") });
    expect(result.findings.map((finding) => [finding.code, finding.file])).toEqual([["nondeterministic_api", "compositions/intro.html"]]);
  });
});
