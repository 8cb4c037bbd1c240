// Lint judges the author's code, not the libraries a composition loads: a library file's findings are warnings
// naming the file (library_script_finding), so they never block a render HyperFrames accepts.
import { describe, expect, it } from "vitest";
import { buildComposition, codesOf, lintFiles } from "./test-fixtures.ts";
import { vendoredReason } from "./vendored-script.ts";

// What a shader or 3D library does at load: its own animation loop and clock.
const LIBRARY_BODY = `(function(){ var start = Date.now(); function loop(){ requestAnimationFrame(loop); } loop();
  window.__timelines = window.__timelines || {}; window.__timelines["fx"] = null; })();`;

const withScript = (src: string) => buildComposition({ head: `<script src="${src}"></script>` });

describe("library files", () => {
  it("tells a library from composition code by HyperFrames' path rule, a banner, or minified text", () => {
    expect(vendoredReason("lib/three.min.js", "x")).toMatch(/min\.js/);
    expect(vendoredReason("vendor/shaders.js", "x")).toMatch(/vendor/);
    expect(vendoredReason("assets/effects.js", "/*! effects v2 | MIT */\nvar a;")).toMatch(/banner/);
    expect(vendoredReason("assets/effects.js", "/**\n * @license MIT\n */\nvar a;")).toMatch(/banner/);
    expect(vendoredReason("assets/fx.js", "var a=1;".repeat(4000))).toMatch(/minified/);
    expect(vendoredReason("scripts/scene.js", "const tl = gsap.timeline({ paused: true });\n".repeat(10))).toBeNull();
  });

  it("says nothing of HyperFrames' shader-transition library as a project file: render nodes run their own in its place", () => {
    const build = `"use strict";var HyperShader=(()=>{${LIBRARY_BODY} function init(){throw new Error("[HyperShader] init()")} return { SHADER_NAMES: [], init };})();`;
    expect(lintFiles({ "index.html": withScript("vendor/hyper-shader.global.js"), "vendor/hyper-shader.global.js": build }).findings).toEqual([]);
    // The same loop in a library that is not it is still reported.
    expect(codesOf(lintFiles({ "index.html": withScript("vendor/fx.js"), "vendor/fx.js": LIBRARY_BODY }))).toEqual(["library_script_finding"]);
  });

  it("reports a library's wall-clock calls and timeline ids as warnings naming the file, not errors", () => {
    for (const path of ["lib/three.min.js", "vendor/fx.js"]) {
      const result = lintFiles({ "index.html": withScript(path), [path]: LIBRARY_BODY });
      expect(result.errorCount, JSON.stringify(result.findings)).toBe(0);
      expect(result.ok).toBe(true);
      expect(codesOf(result)).toEqual(["library_script_finding"]);
      expect(result.findings.every((f) => f.file === path && f.severity === "warning")).toBe(true);
      const messages = result.findings.map((f) => f.message).join("\n");
      expect(messages).toMatch(/requestanimationframe_in_composition/);
      expect(messages).toMatch(/nondeterministic_api/);
      expect(messages).toMatch(/timeline_unknown_id/);
      expect(messages).toMatch(new RegExp(`${path.replace(".", "\\.")} is a library, not composition code`));
    }
  });

  it("still holds the author's own local script to the composition rules", () => {
    const result = lintFiles({ "index.html": withScript("scripts/scene.js"), "scripts/scene.js": LIBRARY_BODY });
    expect(codesOf(result)).toEqual(expect.arrayContaining(["nondeterministic_api", "requestanimationframe_in_composition"]));
    expect(result.ok).toBe(false);
  });
});
