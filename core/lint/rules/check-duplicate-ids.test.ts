import { describe, expect, it } from "vitest";
import { buildComposition, buildSubComposition, codesOf, lintFiles } from "../test-fixtures.ts";

const host = (id: string, src: string) =>
  `<div data-composition-id="${id}" data-composition-src="${src}" data-start="0" data-duration="3" data-track-index="1" data-width="1920" data-height="1080"></div>`;

describe("duplicate id rules", () => {
  it("warns with duplicate_element_id within one file", () => {
    const result = lintFiles({ "index.html": buildComposition({ body: '<p id="line"></p><span id="line"></span><i id="other"></i>' }) });
    expect(codesOf(result)).toEqual(["duplicate_element_id"]);
    expect(result.findings[0]).toMatchObject({ severity: "warning", selector: "#line" });
  });

  it("does not treat a host and its sub-composition root as duplicates", () => {
    const result = lintFiles({ "index.html": buildComposition({ body: host("intro", "compositions/intro.html") }), "compositions/intro.html": buildSubComposition("intro") });
    expect(result.findings).toEqual([]);
  });

  it("reports duplicate_composition_id for two compositions declaring one id", () => {
    const result = lintFiles({
      "index.html": buildComposition({ body: host("intro", "compositions/intro.html") }),
      "compositions/intro.html": buildSubComposition("intro"),
      "compositions/copy.html": buildSubComposition("intro"),
    });
    expect(codesOf(result)).toEqual(["duplicate_composition_id"]);
    expect(result.errorCount).toBe(1);
  });

  it("reports duplicate_composition_id for two hosts with one id", () => {
    const result = lintFiles({
      "index.html": buildComposition({ body: host("intro", "compositions/intro.html") + host("intro", "compositions/intro.html") }),
      "compositions/intro.html": buildSubComposition("intro"),
    });
    expect(codesOf(result)).toEqual(["duplicate_composition_id"]);
  });

  it("reports a sub-composition that reuses the entry's id", () => {
    const result = lintFiles({ "index.html": buildComposition(), "compositions/demo.html": buildSubComposition("demo") });
    expect(codesOf(result)).toEqual(["duplicate_composition_id"]);
  });
});
