import { describe, expect, it } from "vitest";
import { buildComposition, buildSubComposition, codesOf, lintFiles } from "../test-fixtures.ts";

const FULL = 'data-composition-id="intro" data-composition-src="compositions/intro.html" data-start="0" data-duration="3" data-track-index="1" data-width="1920" data-height="1080"';
const project = (hostAttributes: string, files: Record<string, string | number> = { "compositions/intro.html": buildSubComposition("intro") }, tag = "div") =>
  lintFiles({ "index.html": buildComposition({ body: `<${tag} ${hostAttributes}></${tag}>` }), ...files });

describe("sub-composition rules", () => {
  it("accepts a complete host whose file exists with the same id", () => {
    expect(project(FULL).findings).toEqual([]);
  });

  it("reports subcomp_missing_attribute for missing timing", () => {
    const result = project(FULL.replace(' data-start="0"', "").replace(' data-duration="3"', ""));
    expect(codesOf(result)).toEqual(["subcomp_missing_attribute"]);
    expect(result.findings[0]?.message).toContain("data-start, data-duration");
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
