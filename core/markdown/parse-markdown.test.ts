// The Markdown reader: the supported subset becomes a tree, and no XSS attempt yields an element or a link target
// that a browser would run. Text nodes are rendered escaped by Preact, so raw HTML can only ever be text.
import { describe, expect, it } from "vitest";
import { parseMarkdown, safeHref, type Block, type Inline } from "./parse-markdown.ts";

function links(blocks: Block[]): string[] {
  const out: string[] = [];
  const inline = (nodes: Inline[]) => {
    for (const n of nodes) {
      if (n.t === "a") out.push(n.href);
      if ("children" in n) inline(n.children);
    }
  };
  for (const b of blocks) {
    if (b.t === "p" || b.t === "h") inline(b.children);
    if (b.t === "ul" || b.t === "ol") b.items.forEach(inline);
    if (b.t === "blockquote") out.push(...links(b.children));
  }
  return out;
}

describe("parseMarkdown", () => {
  it("reads headings, lists, quotes, code, emphasis and links", () => {
    const tree = parseMarkdown("# Title\n\nSome **bold** text.\n\n- one\n- two\n\n> quoted\n\n```\n<b>raw</b>\n```\n\n[docs](https://example.com/a) [rel](/research/x) [mail](mailto:a@b.c)");
    expect(tree.map((b) => b.t)).toEqual(["h", "p", "ul", "blockquote", "pre", "p"]);
    expect(tree.find((b) => b.t === "pre")).toMatchObject({ text: "<b>raw</b>" });
    expect(links(tree)).toEqual(["https://example.com/a", "/research/x", "mailto:a@b.c"]);
  });

  const attacks = [
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](java\tscript:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox(1))",
    "[x](//evil.example/x)",
    "<javascript:alert(1)>",
    "> [x](javascript:alert(1))",
    "- [x](data:text/html,1)",
  ];
  it.each(attacks)("keeps no runnable link target for %s", (attack) => {
    for (const href of links(parseMarkdown(attack))) {
      expect(href).not.toMatch(/^\s*(javascript|data|vbscript)/i);
      expect(href).not.toMatch(/^\/\//);
    }
  });

  it("leaves raw HTML as text, never as an element", () => {
    const tree = parseMarkdown("<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>");
    expect(tree).toEqual([
      { t: "p", children: [{ t: "text", text: "<script>alert(1)</script>" }] },
      { t: "p", children: [{ t: "text", text: "<img src=x onerror=alert(1)>" }] },
    ]);
  });

  it("accepts only http(s), mailto and relative URLs", () => {
    expect(safeHref("https://a.b")).toBe("https://a.b");
    expect(safeHref("relative/path")).toBe("relative/path");
    expect(safeHref("#anchor")).toBe("#anchor");
    expect(safeHref(" javascript:x")).toBeNull();
    expect(safeHref("ftp://x")).toBeNull();
    expect(safeHref("//evil.example")).toBeNull();
  });
});
