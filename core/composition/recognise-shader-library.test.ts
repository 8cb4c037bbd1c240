import { describe, expect, it } from "vitest";
import { HYPER_SHADER_PAGE_SCRIPT } from "./hyper-shader-page-script.ts";
import { isShaderTransitionsLibrary, replaceInlineShaderLibraries } from "./recognise-shader-library.ts";

// The opening and the marks of the 0.8.41 browser build, as it ships (an IIFE assigned to a top-level var).
const BUILD = `"use strict";var HyperShader=(()=>{var mf={};Fo(mf,{SHADER_NAMES:()=>Cr,init:()=>no});function no(A){throw new Error("[HyperShader] init(): scene id not found in DOM: "+A)}return mo(mf)})();`;

describe("recognising HyperFrames' shader-transition library by content", () => {
  it("knows its builds however they define the global, and our own HyperShader", () => {
    expect(isShaderTransitionsLibrary(BUILD)).toBe(true);
    expect(isShaderTransitionsLibrary(BUILD.replace("var HyperShader=", "window.HyperShader = "))).toBe(true);
    expect(isShaderTransitionsLibrary(BUILD.replace(`"use strict";var HyperShader=`, "globalThis['HyperShader']="))).toBe(true);
    expect(isShaderTransitionsLibrary(HYPER_SHADER_PAGE_SCRIPT)).toBe(true);
  });

  it("leaves alone a script that only uses it, compares it, or defines the name without the library's marks", () => {
    expect(isShaderTransitionsLibrary(`const tl = HyperShader.init({ scenes: ["a"], transitions: [] }); console.log(HyperShader.SHADER_NAMES, "[HyperShader]");`)).toBe(false);
    expect(isShaderTransitionsLibrary(`if (window.HyperShader == null) console.warn("[HyperShader] missing", SHADER_NAMES)`)).toBe(false);
    expect(isShaderTransitionsLibrary(`var HyperShader = { init() {} };`)).toBe(false);
  });

  it("replaces only inline bodies that are the library, not a script with a src, nor one in a comment", () => {
    const html = `<head><script src="x.js">${BUILD}</script><script>${BUILD}</script><!-- <script>${BUILD}</script> --></head><body><script>HyperShader.init({})</script></body>`;
    const { html: out, replaced } = replaceInlineShaderLibraries(html, "OURS");
    expect(replaced).toBe(1);
    expect(out).toBe(`<head><script src="x.js">${BUILD}</script><script>OURS</script><!-- <script>${BUILD}</script> --></head><body><script>HyperShader.init({})</script></body>`);
  });
});
