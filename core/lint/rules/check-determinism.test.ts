import { describe, expect, it } from "vitest";
import { buildComposition, codesOf, lintFiles, timelineScript } from "../test-fixtures.ts";

const withCode = (code: string) => lintFiles({ "index.html": buildComposition({ script: `${timelineScript("demo")}\n${code}` }) });

describe("determinism rules", () => {
  it.each([
    ["Math.random", "const r = Math.random();"],
    ["Date.now", "const t = Date.now();"],
    ["setTimeout", "setTimeout(() => tl.play(), 100);"],
    ["setInterval", "window.setInterval(() => {}, 100);"],
    ["fetch", "fetch('data.json').then(() => {});"],
    ["crypto.getRandomValues", "crypto.getRandomValues(new Uint8Array(4));"],
    ["gsap.utils.random", "const x = gsap.utils.random(0, 100);"],
  ])("reports nondeterministic_api for %s", (name, code) => {
    const result = withCode(code);
    expect(codesOf(result)).toEqual(["nondeterministic_api"]);
    expect(result.findings[0]?.message).toContain(name);
  });

  it.each([["new Date()", "const d = new Date();"], ["performance.now", "const t = performance.now();"]])(
    "reports nondeterministic_time, an error as in HyperFrames, for %s",
    (_name, code) => {
      const result = withCode(code);
      expect(codesOf(result)).toEqual(["nondeterministic_time"]);
      expect(result.ok).toBe(false);
    },
  );

  it("allows fixed dates and look-alike names", () => {
    expect(withCode('const d = new Date("2025-01-01T00:00:00Z"); const f = new Intl.DateTimeFormat("en"); const o = { fetch: 1 }; o.fetch; const mySetTimeout = 1;').findings).toEqual([]);
  });

  it("ignores the names in comments and strings", () => {
    expect(withCode('// Math.random() would break renders\nconst label = "Date.now() and setTimeout(";\n/* fetch(x) */').findings).toEqual([]);
  });

  it("still sees calls inside template literal expressions", () => {
    expect(codesOf(withCode("const s = `value ${Math.random()}`;"))).toEqual(["nondeterministic_api"]);
  });

  it("checks local script files and reports them under their own path", () => {
    const result = lintFiles({ "index.html": buildComposition({ head: '<script src="assets/app.js"></script>' }), "assets/app.js": "setTimeout(function () {}, 5);" });
    expect(result.findings.map((finding) => [finding.code, finding.file])).toEqual([["nondeterministic_api", "assets/app.js"]]);
  });
});
