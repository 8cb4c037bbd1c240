import { describe, expect, it } from "vitest";
import { buildComposition, codesOf, GSAP_TAG, lintFiles } from "../test-fixtures.ts";

const withTag = (gsapTag: string) => lintFiles({ "index.html": buildComposition({ gsapTag }) });

describe("GSAP script rules", () => {
  it("accepts jsDelivr, unpkg and cdnjs at 3.14.2", () => {
    expect(withTag(GSAP_TAG).findings).toEqual([]);
    expect(withTag('<script src="https://unpkg.com/gsap@3.14.2/dist/gsap.min.js"></script>').findings).toEqual([]);
    expect(withTag('<script src="https://cdnjs.cloudflare.com/ajax/libs/gsap/3.14.2/gsap.min.js"></script>').findings).toEqual([]);
  });

  it("reports gsap_missing when gsap is used but never loaded", () => {
    const result = withTag("");
    expect(codesOf(result)).toEqual(["gsap_missing"]);
    expect(result.findings[0]?.fixHint).toContain("gsap@3.14.2/dist/gsap.min.js");
  });

  it("reports gsap_missing when GSAP loads after the script that uses it", () => {
    const html = buildComposition({ gsapTag: "" }).replace("</body>", `${GSAP_TAG}</body>`);
    expect(codesOf(lintFiles({ "index.html": html }))).toEqual(["gsap_missing"]);
  });

  it("accepts every release render nodes ship; reports gsap_version_mismatch for another or an unpinned version, naming the one served", () => {
    expect(codesOf(withTag('<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>'))).toEqual([]);
    expect(codesOf(withTag('<script src="https://unpkg.com/gsap@3.13.0/dist/gsap.min.js"></script>'))).toEqual([]);
    const other = lintFiles({ "index.html": buildComposition({ gsapTag: '<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.2/dist/gsap.min.js"></script>' }) });
    expect(codesOf(other)).toEqual(["gsap_version_mismatch"]);
    expect(other.findings[0]!.message).toMatch(/GSAP 3\.12\.2 is loaded; .* render it with 3\.12\.5/);
    expect(codesOf(withTag('<script src="https://cdn.jsdelivr.net/npm/gsap/dist/gsap.min.js"></script>'))).toEqual(["gsap_version_mismatch"]);
  });

  it("reports gsap_source_unsupported for a URL render nodes cannot serve", () => {
    expect(codesOf(withTag('<script src="https://example.com/js/gsap.min.js"></script>'))).toEqual(["gsap_source_unsupported"]);
  });

  it("accepts a local copy that exists in the project", () => {
    const result = lintFiles({ "index.html": buildComposition({ gsapTag: '<script src="assets/gsap.min.js"></script>' }), "assets/gsap.min.js": 70000 });
    expect(result.findings).toEqual([]);
  });

  it("does not count gsap in comments or strings as use", () => {
    const result = lintFiles({ "index.html": buildComposition({ gsapTag: "", rootAttributes: 'data-composition-id="demo" data-start="0" data-duration="6" data-width="1920" data-height="1080"', script: '// gsap.to(x)\n const s = "gsap.timeline"; window.__timelines = window.__timelines || {}; window.__timelines["demo"] = null;' }) });
    expect(codesOf(result)).toEqual([]);
  });
});
