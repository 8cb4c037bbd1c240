import { describe, expect, it } from "vitest";
import { lintProject } from "../lint/lint-project.ts";
import { readCompositionMeta } from "./read-composition-meta.ts";
import { starterComposition } from "./starter.ts";

const lintStarter = (html: string) => lintProject({ files: [{ path: "index.html", size: html.length, text: html }] }, { verbose: true });

describe("starterComposition", () => {
  it.each([
    ["my-video", 6],
    ["a", 1],
    ["launch-2025", 0.5],
    ["long-form", 90],
    ["x9", 12.25],
  ])("lints clean for id %s and %s s", (compositionId, duration) => {
    const html = starterComposition({ compositionId, title: "Launch day", duration });
    const result = lintStarter(html);
    expect(result.errorCount).toBe(0);
    expect(result.warningCount).toBe(0);
    expect(result.findings.map((finding) => finding.code)).toEqual(["composition_summary"]);
    expect(readCompositionMeta(html)).toEqual({ compositionId, duration, width: 1920, height: 1080 });
  });

  it("defaults to 6 seconds", () => {
    expect(readCompositionMeta(starterComposition({ compositionId: "demo", title: "Demo" })).duration).toBe(6);
  });

  it("escapes the title", () => {
    const html = starterComposition({ compositionId: "demo", title: `<script>alert("x")</script> & 'co'` });
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;");
    expect(lintStarter(html).warningCount + lintStarter(html).errorCount).toBe(0);
  });

  it("loads GSAP 3.14.2 from jsDelivr and registers a paused timeline under the id", () => {
    const html = starterComposition({ compositionId: "demo", title: "Demo" });
    expect(html).toContain('src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"');
    expect(html).toContain("gsap.timeline({ paused: true })");
    expect(html).toContain('window.__timelines["demo"] = tl;');
  });

  it("rejects ids that cannot be embedded safely and bad durations", () => {
    expect(() => starterComposition({ compositionId: 'a"b', title: "x" })).toThrow(/compositionId/);
    expect(() => starterComposition({ compositionId: "ok", title: "x", duration: 0 })).toThrow(/duration/);
    expect(() => starterComposition({ compositionId: "ok", title: "x", duration: Number.NaN })).toThrow(/duration/);
  });
});
