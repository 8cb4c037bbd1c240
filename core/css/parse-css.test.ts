import { describe, expect, it } from "vitest";
import { extractCssUrls, readImportTarget } from "./extract-css-urls.ts";
import { listAtRules, listStyleRules, parseCss, parseDeclarations, splitSelectorList } from "./parse-css.ts";

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

  it("reads nested groups, keeps keyframes out of the rules, and reads declaration lists", () => {
    const nodes = parseCss("@media (x) { @supports (display: grid) { .g { display: grid } } } @keyframes k { 50% { opacity: .5 } } @font-face { font-family: A; SRC: url(a.woff2) }");
    expect(listStyleRules(nodes).map((rule) => rule.selector)).toEqual([".g"]);
    expect(listAtRules(nodes).find((rule) => rule.name === "font-face")?.declarations.map((d) => d.property)).toEqual(["font-family", "src"]);
    expect(parseDeclarations("color: red; .nested { x: y }; width: 2px ! important")).toEqual([
      { property: "color", value: "red", important: false },
      { property: "width", value: "2px", important: true },
    ]);
  });
});

describe("extractCssUrls", () => {
  it("finds url() values quoted or bare, decodes escapes, skips comments, and reads @import targets", () => {
    const css = '/* url(commented.png) */ .a { background: url("a (1).png"), url(b\\(2\\).png) } @import url(c.css); .b { mask: url( \'d.svg\' ) }';
    expect(extractCssUrls(css)).toEqual(["a (1).png", "b(2).png", "c.css", "d.svg"]);
    expect(extractCssUrls("background: url(x.png); color: red", "declarationList")).toEqual(["x.png"]);
    expect(readImportTarget('url("x.css") screen')).toBe("x.css");
    expect(readImportTarget("'y.css'")).toBe("y.css");
    expect(readImportTarget("")).toBeNull();
  });
});
