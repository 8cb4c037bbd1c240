import { describe, expect, it } from "vitest";
import { listAtRules, listStyleRules, parseCss, splitSelectorList } from "./parse-css.ts";

describe("parseCss", () => {
  it("reads rules, declarations, !important and nested @media rules", () => {
    const nodes = parseCss(`/* c { x: y } */ html, body { width: 1920px !important; background: url("a;b.png"); }
      @media (min-width: 1px) { .a { color: red } }
      @import url(x.css);
      @keyframes k { from { opacity: 0 } }`);
    expect(listStyleRules(nodes).map((rule) => rule.selector)).toEqual(["html, body", ".a"]);
    expect(listStyleRules(nodes)[0]?.declarations).toEqual([
      { property: "width", value: "1920px", important: true },
      { property: "background", value: 'url("a;b.png")', important: false },
    ]);
    expect(listAtRules(nodes).map((rule) => rule.name)).toEqual(["media", "import", "keyframes"]);
  });

  it("survives unbalanced input", () => {
    expect(listStyleRules(parseCss(".a { color: red; .b { x")).map((rule) => rule.selector)).toEqual([".a"]);
    expect(parseCss("}}} .a { color: red }").length).toBe(1);
  });

  it("splits selector lists only at top-level commas", () => {
    expect(splitSelectorList(':is(.a, .b) p, [title="x,y"], h1')).toEqual([":is(.a, .b) p", '[title="x,y"]', "h1"]);
  });
});
