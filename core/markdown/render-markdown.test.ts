// The Markdown renderer: the supported subset renders, and no XSS attempt yields a live tag, attribute or URL.
import { describe, expect, it } from "vitest";
import { renderMarkdown, safeHref } from "./render-markdown.ts";

describe("renderMarkdown", () => {
  it("renders headings, paragraphs, lists, quotes, code, emphasis and links", () => {
    const html = renderMarkdown(
      "# Title\n\nSome **bold** and *soft* text with `a < b`.\n\n- one\n- two\n\n1. first\n\n> quoted\n\n```\n<b>raw</b>\n```\n\n[docs](https://example.com/a?b=1&c=2) [rel](/research/x) [mail](mailto:a@b.c)",
    );
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<p>Some <strong>bold</strong> and <em>soft</em> text with <code>a &lt; b</code>.</p>");
    expect(html).toContain("<ul><li>one</li><li>two</li></ul>");
    expect(html).toContain("<ol><li>first</li></ol>");
    expect(html).toContain("<blockquote><p>quoted</p></blockquote>");
    expect(html).toContain("<pre><code>&lt;b&gt;raw&lt;/b&gt;</code></pre>");
    expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">docs</a>');
    expect(html).toContain('<a href="/research/x"');
    expect(html).toContain('<a href="mailto:a@b.c"');
  });

  const attacks = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg/onload=alert(1)>",
    "<a href=\"javascript:alert(1)\">x</a>",
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](java\tscript:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[x](vbscript:msgbox(1))",
    "[x](//evil.example/x)",
    '[x](https://ok.example/" onmouseover="alert(1))',
    "[<img src=x onerror=alert(1)>](https://ok.example)",
    "**<iframe src=//evil>**",
    "`<script>`",
    "```\n</code></pre><script>alert(1)</script>\n```",
    "# <style>body{display:none}</style>",
    "> <object data=x>",
    "- <math><mi xlink:href=javascript:alert(1)>",
  ];

  it.each(attacks)("neutralises %s", (attack) => {
    const html = renderMarkdown(attack);
    // Only the renderer's own tags may appear, and no attribute but href/rel.
    const tags = [...html.matchAll(/<\/?([a-z0-9]+)([^>]*)>/gi)];
    for (const [, name, attrs] of tags) {
      expect(["h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "blockquote", "pre", "code", "strong", "em", "a"]).toContain(name);
      expect((attrs ?? "").replace(/\s(href|rel)="[^"]*"/g, "").trim()).toBe("");
    }
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(safeHref(href ?? "")).not.toBeNull();
    expect(html).not.toMatch(/href="\s*(javascript|data|vbscript):/i);
    expect(html).not.toMatch(/href="\/\//);
  });

  it("accepts only http(s), mailto and relative URLs", () => {
    expect(safeHref("https://a.b")).toBe("https://a.b");
    expect(safeHref("relative/path")).toBe("relative/path");
    expect(safeHref("#anchor")).toBe("#anchor");
    expect(safeHref(" javascript:x")).toBeNull();
    expect(safeHref("ftp://x")).toBeNull();
  });
});
