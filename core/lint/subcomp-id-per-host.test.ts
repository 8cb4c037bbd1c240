// subcomp_id_mismatch stays quiet where the runtime gives each mount its host's id: a file mounted twice, or
// mounted with per-host variables (HyperFrames' documented idiom); a single plain mount with another id still errs.
import { describe, expect, it } from "vitest";
import { buildComposition, buildSubComposition, lintFiles } from "./test-fixtures.ts";

const host = (id: string, extra = "") =>
  `<div data-composition-id="${id}" data-composition-src="compositions/card.html" data-start="0" data-duration="3" data-track-index="1" data-width="1920" data-height="1080"${extra}></div>`;
const mismatches = (body: string) =>
  lintFiles({ "index.html": buildComposition({ body }), "compositions/card.html": buildSubComposition("card") }).findings.filter((f) => f.code === "subcomp_id_mismatch");

describe("subcomp_id_mismatch", () => {
  it("is not reported for the same file mounted twice under different ids", () => {
    expect(mismatches(host("card-pro") + host("card-team"))).toEqual([]);
  });
  it("is not reported for a mount with data-variable-values", () => {
    expect(mismatches(host("card-pro", ` data-variable-values='{"title":"Pro"}'`))).toEqual([]);
  });
  it("is still reported for a single plain mount under another id", () => {
    expect(mismatches(host("other"))).toHaveLength(1);
  });
});
