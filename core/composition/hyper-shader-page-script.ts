// Our own HyperShader: the script renders, /play and previews serve in place of HyperFrames' shader-transition
// library (@hyperframes/shader-transitions, `window.HyperShader`, which compositions load from jsDelivr or unpkg
// as its docs show). `HyperShader.init({ bgColor, accentColor?, scenes, transitions, timeline?, compositionId? })`
// checks the scenes as HyperShader does (each id an element with the `scene` class, one more scene than
// transitions) and schedules each scene's visibility on the timeline: every scene but the first hidden at 0; each
// transition a crossfade tween of its two scenes (so a live preview shows a blend); a shader name it does not know
// switches them as HyperFrames does (the next scene shown at `time`, the previous hidden at `time + duration`). It
// records the transitions (window.__studioShaderTransitions for the render node, which blends each shader
// transition's two scenes itself, render-node/src/shader-transitions/; window.__hf.transitions as HyperFrames
// does) and returns the timeline, registered in window.__timelines when it made it. Durations default to 0.7 s,
// eases to power2.inOut.
import { SHADER_TRANSITION_NAMES } from "./shader-transition-names.ts";

/** What the page records for the node: the transitions in time order, the scene background and accent colour. */
export interface PageShaderTransitions {
  bgColor: string;
  accentColor: string | null;
  transitions: { time: number; duration: number; shader: string | null; fromScene: string; toScene: string }[];
}

export const HYPER_SHADER_PAGE_SCRIPT = `(function () {
  "use strict";
  var DEFAULT_DURATION = 0.7;
  var DEFAULT_EASE = "power2.inOut";
  var KNOWN = ${JSON.stringify(SHADER_TRANSITION_NAMES)};
  function init(config) {
    if (!config || !Array.isArray(config.scenes) || !Array.isArray(config.transitions)) {
      throw new Error("[HyperShader] init(): scenes and transitions must be arrays");
    }
    var scenes = config.scenes;
    var transitions = config.transitions;
    if (scenes.length !== transitions.length + 1) {
      throw new Error("[HyperShader] init(): expected scenes.length === transitions.length + 1, got scenes=" + scenes.length + ", transitions=" + transitions.length);
    }
    for (var s = 0; s < scenes.length; s++) {
      var el = document.getElementById(String(scenes[s]));
      if (!el) throw new Error("[HyperShader] init(): scene id not found in DOM: " + scenes[s]);
      if (!el.classList.contains("scene")) throw new Error("[HyperShader] init(): element found but missing .scene class: " + scenes[s]);
    }
    var root = document.querySelector("[data-composition-id]");
    var compId = config.compositionId || (root && root.getAttribute("data-composition-id")) || "main";
    var tl = config.timeline || window.gsap.timeline({ paused: true });
    if (config.timeline) {
      var length = Number((root && root.getAttribute("data-duration")) || "40");
      tl.to({ t: 0 }, { t: 1, duration: length, ease: "none" }, 0);
    }
    for (var i = 1; i < scenes.length; i++) tl.set("#" + scenes[i], { opacity: 0 }, 0);
    var recorded = [];
    for (var k = 0; k < transitions.length; k++) {
      var t = transitions[k] || {};
      var from = "#" + scenes[k];
      var to = "#" + scenes[k + 1];
      var duration = typeof t.duration === "number" ? t.duration : DEFAULT_DURATION;
      var ease = t.ease || DEFAULT_EASE;
      if (t.shader !== undefined && KNOWN.indexOf(t.shader) === -1) {
        // A shader the node cannot blend (it reports it): the scenes switch as HyperFrames leaves them then.
        tl.set(to, { opacity: 1 }, t.time);
        tl.set(from, { opacity: 0 }, t.time + duration);
      } else {
        tl.fromTo(to, { opacity: 0 }, { opacity: 1, duration: duration, ease: ease }, t.time);
        tl.fromTo(from, { opacity: 1 }, { opacity: 0, duration: duration, ease: ease }, t.time);
      }
      recorded.push({ time: Number(t.time), duration: duration, shader: t.shader === undefined ? null : String(t.shader), fromScene: String(scenes[k]), toScene: String(scenes[k + 1]) });
    }
    window.__studioShaderTransitions = { bgColor: String(config.bgColor || "#000"), accentColor: config.accentColor ? String(config.accentColor) : null, transitions: recorded };
    window.__hf = window.__hf || {};
    window.__hf.transitions = recorded.map(function (r) {
      return { time: r.time, duration: r.duration, shader: r.shader === null ? undefined : r.shader, ease: DEFAULT_EASE, fromScene: r.fromScene, toScene: r.toScene };
    });
    if (!config.timeline) {
      window.__timelines = window.__timelines || {};
      window.__timelines[compId] = tl;
    }
    return tl;
  }
  window.HyperShader = {
    // Tells the render node this HyperShader is the studio's (render-node/src/browser/foreign-libraries.ts).
    studio: true,
    init: init,
    SHADER_NAMES: KNOWN.slice(),
    isHtmlInCanvasCaptureSupported: function () { return false; },
    isPageSideCompositingSupported: function () { return false; },
    installPageSideCompositor: function () { return false; }
  };
})();
`;
