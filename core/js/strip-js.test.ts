import { describe, expect, it } from "vitest";
import { stripJs } from "./strip-js.ts";

describe("stripJs", () => {
  it("blanks comments in both views and literal contents only in bare, keeping offsets", () => {
    const source = 'a("Math.random"); // Date.now()\n/* fetch() */ b(`x${ Math.random() }y`); c(/set\\/Timeout(/g);';
    const { code, bare } = stripJs(source);
    expect(code.length).toBe(source.length);
    expect(bare.length).toBe(source.length);
    expect(code).toContain('"Math.random"');
    expect(code).not.toContain("Date.now");
    expect(code).not.toContain("fetch");
    expect(bare).not.toContain("Math.random\"");
    expect(bare).toContain("Math.random()");
    expect(bare).not.toContain("Timeout(");
  });

  it("tells division from regex literals", () => {
    const { bare } = stripJs("const x = a / b; const y = c / 2; setTimeout(f);");
    expect(bare).toContain("setTimeout(f)");
  });
  it("follows nested templates, regexes after keywords and in parentheses, and character classes holding a slash", () => {
    const source = [
      "const s = `a ${ `b ${ fetch(u) } \"Date.now()\"` } c`;",
      "function f() { return /Math.random[/]x/g.test(s) ? (a) / 2 : 0; }",
      "const t = (x) / 2 / setInterval(g);",
      "if (ok) /eval\\(/.exec(q);",
    ].join("\n");
    const { code, bare } = stripJs(source);
    expect(bare.length).toBe(source.length);
    expect(bare).toContain("fetch(u)");
    expect(bare).not.toContain("Date.now");
    expect(bare).not.toContain("Math.random");
    expect(bare).toContain(".test(s) ? (a) / 2 : 0; }");
    expect(bare).toContain("setInterval(g)");
    expect(bare).not.toContain("eval");
    expect(code).toBe(source);
    expect(bare.split("\n").map((l) => l.length)).toEqual(source.split("\n").map((l) => l.length));
  });

  it("blanks HTML-like comments and a hashbang, and leaves what follows a lexical error as written", () => {
    expect(stripJs("#!/usr/bin/env node fetch()\nx();").code).toBe(" ".repeat(27) + "\nx();");
    expect(stripJs("<!-- fetch() -->\na();").code.trim()).toBe("a();");
    const broken = stripJs('const a = "Math.random()"; const b = "unterminated\nDate.now();');
    expect(broken.bare).not.toContain("Math.random");
    expect(broken.bare).toContain("Date.now();");
  });
});
