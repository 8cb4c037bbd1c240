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
});
