// Lint, the render node, the play page and the page runtime recognise GSAP CDN URLs with one function: on a corpus
// of real CDN URLs (jsDelivr, unpkg, cdnjs; pinned, unpinned, minified or not, plugins) lint accepts exactly what
// the render page's CSP lets through, the node serves and the play page rewrites, and flags a version exactly where
// the node substitutes one (a release it does not ship: core/composition/gsap-versions.ts).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildComposition, codesOf, lintFiles } from "../../core/lint/test-fixtures.ts";
import { rewriteGsapScripts } from "../../core/composition/build-play-page.ts";
import { matchGsapUrl } from "../../core/composition/match-gsap-url.ts";
import { serveGsapVersion } from "../../core/composition/gsap-versions.ts";
import { gsapDist } from "../src/browser/intercept-requests.ts";
import { COMPOSITION_CSP } from "../src/browser/network-policy.ts";

/** URL → what it asks for, or null for a URL that is not a GSAP file on a package CDN. */
const CORPUS: Array<[string, { version: string | null; file: string } | null]> = [
  ["https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js", { version: "3.14.2", file: "gsap.min.js" }],
  ["https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.js", { version: "3.14.2", file: "gsap.js" }],
  ["https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/ScrollTrigger.min.js", { version: "3.14.2", file: "ScrollTrigger.min.js" }],
  ["https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/MotionPathPlugin.js", { version: "3.12.5", file: "MotionPathPlugin.js" }],
  ["https://cdn.jsdelivr.net/npm/gsap@3/dist/gsap.min.js", { version: "3", file: "gsap.min.js" }],
  ["https://cdn.jsdelivr.net/npm/gsap/dist/gsap.min.js", { version: null, file: "gsap.min.js" }],
  ["https://cdn.jsdelivr.net/npm/gsap@latest/dist/gsap.min.js", { version: null, file: "gsap.min.js" }],
  ["https://fastly.jsdelivr.net/npm/gsap@3.14.2/dist/SplitText.min.js", { version: "3.14.2", file: "SplitText.min.js" }],
  ["//cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js", { version: "3.14.2", file: "gsap.min.js" }],
  ["https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js?v=2", { version: "3.14.2", file: "gsap.min.js" }],
  ["https://unpkg.com/gsap@3.14.2/dist/gsap.min.js", { version: "3.14.2", file: "gsap.min.js" }],
  ["https://unpkg.com/gsap@3.12.5/dist/ScrollTrigger.js", { version: "3.12.5", file: "ScrollTrigger.js" }],
  ["https://unpkg.com/gsap/dist/Draggable.min.js", { version: null, file: "Draggable.min.js" }],
  ["https://cdnjs.cloudflare.com/ajax/libs/gsap/3.14.2/gsap.min.js", { version: "3.14.2", file: "gsap.min.js" }],
  ["https://cdnjs.cloudflare.com/ajax/libs/gsap/3.12.2/ScrollTrigger.min.js", { version: "3.12.2", file: "ScrollTrigger.min.js" }],
  ["https://cdnjs.cloudflare.com/ajax/libs/gsap/3.14.2/CustomEase.js", { version: "3.14.2", file: "CustomEase.js" }],
  // Not GSAP files on a package CDN: another host, another package, an ES module path, a path that climbs out.
  ["https://example.com/js/gsap.min.js", null],
  ["https://example.com/gsap@3.14.2/dist/gsap.min.js", null],
  ["https://cdn.jsdelivr.net/gsap@3.14.2/dist/gsap.min.js", null],
  ["https://gcore.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js", null],
  ["https://cdn.jsdelivr.net/npm/gsap-trial@3.14.2/dist/gsap.min.js", null],
  ["https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/esm/index.js", null],
  ["https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/../package.js", null],
  ["https://cdn.jsdelivr.net/npm/leak@1.0.0/x.js", null],
  ["https://cdnjs.cloudflare.com/ajax/libs/jquery/3.7.1/jquery.min.js", null],
  ["assets/gsap.min.js", null],
  ["data:text/javascript,gsap", null],
];

const lintCodes = (url: string) => codesOf(lintFiles({ "index.html": buildComposition({ gsapTag: `<script src="${url}"></script>` }) }));

describe("one GSAP URL recogniser", () => {
  it.each(CORPUS)("%s", (url, expected) => {
    const match = matchGsapUrl(url);
    expect(match).toEqual(expected);
    const codes = lintCodes(url);
    const playPage = rewriteGsapScripts(`<script src="${url}"></script>`, "/local/");
    if (match) {
      // Lint accepts the source exactly when the node answers it from the package and the play page rewrites it…
      expect(codes).not.toContain("gsap_source_unsupported");
      // …pointing it at the same release the node serves (the preview and /play hold each release under its version).
      const served = serveGsapVersion(match.version);
      expect(playPage).toBe(`<script src="/local/${served.version}/${match.file}"></script>`);
      expect(existsSync(join(gsapDist(served.version), match.file))).toBe(true);
      // …and the render page's CSP lets the request reach interception.
      const scriptSources = COMPOSITION_CSP.split("; ").find((d) => d.startsWith("script-src "))!.split(" ").slice(1);
      const where = new URL(url, "https://relative.invalid/");
      expect(scriptSources.some((source) => `${where.host}${where.pathname}`.startsWith(source))).toBe(true);
      // …and warns about the version exactly when the node serves another one than asked.
      expect(codes.includes("gsap_version_mismatch")).toBe(!served.exact);
    } else {
      expect(codes).not.toContain("gsap_version_mismatch");
      expect(playPage).toBe(`<script src="${url}"></script>`);
    }
  });
});
