import { describe, expect, it } from "vitest";
import { buildComposition, codesOf, lintFiles, timelineScript } from "../test-fixtures.ts";

// The four rules HyperFrames' lint reports on wall-clock animation and on tweens the frame-by-frame render
// shows wrong: each fires on the idiom, with HyperFrames' code and severity, and not on the right way to write it.
const withScript = (extra: string, body?: string) =>
  lintFiles({ "index.html": buildComposition({ script: `${timelineScript("demo")}\n${extra}`, ...(body !== undefined ? { body } : {}) }) });

describe("requestanimationframe_in_composition", () => {
  it("is an error for a requestAnimationFrame loop, window.-prefixed too", () => {
    for (const code of ["requestAnimationFrame(function step() { requestAnimationFrame(step); });", "window.requestAnimationFrame(() => {});"]) {
      const result = withScript(code);
      expect(codesOf(result)).toEqual(["requestanimationframe_in_composition"]);
      expect(result.findings[0]?.severity).toBe("error");
      expect(result.ok).toBe(false);
    }
  });

  it("ignores the name in comments, strings and look-alike functions", () => {
    expect(withScript('// requestAnimationFrame(x)\nconst s = "requestAnimationFrame(";\nfunction myRequestAnimationFrame() {}\nmyRequestAnimationFrame();').findings).toEqual([]);
  });
});

describe("gsap_infinite_repeat", () => {
  it("warns on repeat: -1, once per tween", () => {
    const result = withScript("tl.to('#root .title', { rotation: 360, duration: 1, repeat: -1 }, 0);\ntl.to('#root .title', { y: 10, repeat:-1, yoyo: true }, 0);");
    expect(result.findings.map((f) => f.code)).toEqual(["gsap_infinite_repeat", "gsap_infinite_repeat"]);
    expect(result.findings[0]?.severity).toBe("warning");
    expect(result.ok).toBe(true);
  });

  it("accepts finite repeats, -10, and the text in strings and comments", () => {
    expect(withScript("tl.to('#root .title', { y: 10, repeat: 3, yoyo: true }, 0);\ntl.to('#root .title', { x: 1, repeat: -10 }, 0);\n// repeat: -1\nconst t = 'repeat: -1';").findings).toEqual([]);
  });
});

describe("gsap_non_transform_motion", () => {
  it("is an error for a letterSpacing tween, naming the property and the selector", () => {
    const result = withScript("tl.to('#root .title', { letterSpacing: '12px', duration: 1 }, 0);");
    expect(codesOf(result)).toEqual(["gsap_non_transform_motion"]);
    expect(result.findings[0]).toMatchObject({ severity: "error", selector: "#root .title" });
    expect(result.findings[0]?.message).toContain("letterSpacing");
  });

  it("covers layout properties, fontSize, fromTo's from-vars and roundProps, in chained calls too", () => {
    const result = withScript(
      "tl.fromTo('.a', { left: 0 }, { x: 5 }).to('.b', { fontSize: 40 }).to('.c', { x: 100, roundProps: 'x' });\ngsap.from('.d', { marginTop: 20 });",
    );
    const motion = result.findings.filter((f) => f.code === "gsap_non_transform_motion");
    expect(motion.map((f) => [f.selector, f.message.match(/animates (\w+)/)?.[1]])).toEqual([
      [".c", "roundProps"],
      [".b", "fontSize"],
      [".a", "left"],
      [".d", "marginTop"],
    ]);
    expect(motion[0]?.message).toContain("The tween .to('.c', { x: 100, roundProps: 'x' })");
  });

  it("accepts transforms, opacity, and a set (no motion between frames)", () => {
    expect(withScript("tl.to('#root .title', { x: 100, y: 20, scale: 1.2, opacity: 0.5 }, 0);\ntl.set('#root .title', { letterSpacing: '2px' }, 1);").findings).toEqual([]);
  });
});

describe("gsap_animates_clip_element", () => {
  const clip = '<div id="card" class="clip card" data-start="1" data-duration="2" data-track-index="1"><p>Card</p></div>';

  it("is an error for autoAlpha, visibility or display on a clip, by id or by class", () => {
    const result = withScript("tl.to('#card', { autoAlpha: 0, duration: 0.5 }, 2);\ntl.set('.card', { display: 'none' }, 2.5);", clip);
    expect(result.findings.map((f) => f.code)).toEqual(["gsap_animates_clip_element", "gsap_animates_clip_element"]);
    expect(result.findings.map((f) => f.selector)).toEqual(["#card", ".card"]);
    expect(result.findings[0]?.severity).toBe("error");
  });

  it("accepts opacity on the clip, autoAlpha on its child, and autoAlpha on elements that are not clips", () => {
    expect(withScript("tl.to('#card', { opacity: 0 }, 2);\ntl.to('#card p', { autoAlpha: 0 }, 2);\ntl.to('#root .title', { autoAlpha: 0 }, 1);", clip).findings).toEqual([]);
  });
});
