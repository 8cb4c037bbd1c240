// A composition whose script forges every value the page hands the render node (page-contract.test.ts). It reaches
// the runtime's answers the ways a hostile script can: by wrapping or replacing window.__studio (which the runtime
// freezes), and through the built-ins the runtime uses (Array.prototype.map, Object.keys, Element.prototype.
// getAttribute), which no freezing of __studio stops. What it forges: an ffmpeg filter graph as a video's
// playbackRate that overlays a node file (the canary PNG) onto the clip, a video index that climbs out of the job's
// folder, NaN, ±Infinity, huge, negative, wrong-typed and overlong values, filter syntax in data-fps, lying
// findings, overlong timeline keys (and so seekFrame answers), a forged volume automation and shader transitions.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runTool } from "../src/system/run-tool.ts";
import { writeColourClip } from "./colour-clip.ts";

export const W = 320;
export const H = 180;
const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";

/** What the script forges; `refuse` also forges the root's width, which refuses the whole report. */
function tamperScript(canaryPng: string, escapeIndex: string, refuse: boolean): string {
  return `(function () {
  var clip = location.origin + "/assets/clip.mp4";
  var tone = location.origin + "/assets/tone.wav";
  var canary = ${JSON.stringify(canaryPng)};
  var long = new Array(5001).join("x");
  // 1. window.__studio itself: wrapped, replaced, redefined. Frozen by the runtime, so none of this may take; if one
  // does, a green square is painted (the test looks for it).
  var studio = window.__studio;
  var took = [];
  // Reading it is what compositions may do: on a render page renderMode is true (else the square shows too).
  if (studio.renderMode !== true || typeof studio.info !== "function") took.push("read");
  ["info", "findings", "seekFrame", "volumeAutomation"].forEach(function (name) {
    var original = studio[name];
    try { studio[name] = function () { return original.apply(studio, arguments); }; } catch (e) {}
    try { Object.defineProperty(studio, name, { value: function () { return original.apply(studio, arguments); } }); } catch (e) {}
    if (studio[name] !== original) took.push(name);
  });
  try { window.__studio = Object.assign({}, studio); } catch (e) {}
  try { Object.defineProperty(window, "__studio", { value: Object.assign({}, studio) }); } catch (e) {}
  try { delete window.__studio; } catch (e) {}
  if (window.__studio !== studio) took.push("__studio");
  if (!window.__studio) window.__studio = studio;
  try { Object.freeze = function (o) { return o; }; } catch (e) {}
  try { JSON.stringify = function () { return "{}"; }; } catch (e) {}
  if (took.length) document.getElementById("tampered").style.display = "block";
  // 2. Built-ins the runtime's info(), findings() and volumeAutomation() use: their answers, forged.
  var realMap = Array.prototype.map;
  var has = function (o, keys) { return o !== null && typeof o === "object" && keys.every(function (k) { return k in o; }); };
  Array.prototype.map = function () {
    var out = realMap.apply(this, arguments);
    if (has(out[0], ["playbackRate", "loop", "index"])) return [
      { index: 0, src: clip, start: 0, duration: 1, mediaStart: 0, playbackRate: "1,scale=160:90[a];movie=" + canary + "[b];[a][b]overlay", loop: false },
      { index: 1, src: clip, start: 0, duration: 1, mediaStart: 0, playbackRate: 1, loop: false },
      { index: ${JSON.stringify(escapeIndex)}, src: clip, start: 0, duration: 1, mediaStart: 0, playbackRate: 1, loop: false },
      { index: 3.5, src: clip, start: 0, duration: 1, mediaStart: 0, playbackRate: 1, loop: "yes" },
    ];
    if (has(out[0], ["fadeIn", "volume", "kind"])) return [
      { kind: "audio", src: tone, start: 0, duration: 1, mediaStart: 0, playbackRate: 1, volume: 1, fadeIn: 0, fadeOut: 0 },
      { kind: "audio", src: tone, start: "0,amovie=" + canary, duration: 1, mediaStart: 0, playbackRate: 1, volume: 1, fadeIn: 0, fadeOut: 0 },
      { kind: "audio", src: tone, start: NaN, duration: Infinity, mediaStart: -Infinity, playbackRate: 1e9, volume: 1e9, fadeIn: -1, fadeOut: 0 },
      { kind: "movie", src: "/etc/passwd", start: 0, duration: null, mediaStart: 0, playbackRate: 1, volume: 1, fadeIn: 0, fadeOut: 0 },
    ];
    if (has(out[0], ["code", "severity", "message"])) return [
      { code: "page-error", severity: "info", file: "index.html", message: "a page-error that says it is only info" },
      { code: "../../etc", severity: "error", file: "index.html", message: "no such code" },
      { code: "page-error", severity: "error", file: { path: "index.html" }, message: long },
      "a finding that is a string",
    ];
    if (this.length && has(this[0], ["el", "start", "end"]) && out.every(Array.isArray)) return [
      [{ time: NaN, volume: 1e9 }], [{ time: 0, volume: "loud" }], [],
    ];
    return out;
  };
  var realKeys = Object.keys;
  Object.keys = function (o) {
    var keys = realKeys(o);
    return o === window.__timelines ? keys.concat(["bad\\u0000id", long]) : keys;
  };
  var realGet = Element.prototype.getAttribute;
  Element.prototype.getAttribute = function (name) {
    if (this.getAttributeNode("data-composition-id") && name === "data-fps") return "30,movie=" + canary;
    ${refuse ? 'if (this.getAttributeNode("data-composition-id") && name === "data-width") return "-5";' : ""}
    return realGet.call(this, name);
  };
  // The node's font check reads computed styles and measures text in the page: a family of 5000 characters, "fallen back".
  var realStyle = window.getComputedStyle;
  window.getComputedStyle = function (el) {
    var style = realStyle.apply(window, arguments);
    return el && el.id === "name" ? { fontFamily: long } : style;
  };
  CanvasRenderingContext2D.prototype.measureText = function () { return { width: 1 }; };
  // Check's layout measures boxes in the page: one at NaN.
  var realRect = Element.prototype.getBoundingClientRect;
  Element.prototype.getBoundingClientRect = function () {
    return this.id === "box" ? { x: NaN, y: 0, width: 10, height: 10, left: NaN, top: 0, right: NaN, bottom: 10 } : realRect.call(this);
  };
  // 3. A plain page global the node reads: shader transitions with a missing time and an overlong scene id.
  window.__studioShaderTransitions = { bgColor: "#000", accentColor: null, transitions: [
    { time: null, duration: 1, shader: "glitch", fromScene: "a", toScene: "b" },
    { time: 0.5, duration: 0.2, shader: "not-a-shader", fromScene: long, toScene: "b" },
  ] };
  // 4. A timeline under a 600-character key, animating: its key is in every seekFrame answer.
  window.__timelines = window.__timelines || {};
  window.__timelines[new Array(601).join("t")] = gsap.timeline({ paused: true }).to("#box", { x: 100, duration: 1, ease: "none" });
  window.__timelines["pc"] = gsap.timeline({ paused: true });
})();`;
}

function indexHtml(canaryPng: string, escapeIndex: string, refuse: boolean): string {
  return `<!doctype html>
<html><head><meta charset="utf-8">
<script src="${GSAP}"></script>
<style>
html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }
[data-composition-id="pc"] { position: relative; width: ${W}px; height: ${H}px; background: #000; }
video { position: absolute; top: 0; width: 160px; height: 90px; }
#left { left: 0; }
#right { left: 160px; }
#box { position: absolute; left: 0; top: 140px; width: 20px; height: 20px; background: #808080; }
#tampered { display: none; position: absolute; right: 0; bottom: 0; width: 60px; height: 60px; background: #00ff00; }
#name { position: absolute; left: 0; top: 100px; color: #fff; font: 16px sans-serif; }
</style></head>
<body>
<div data-composition-id="pc" data-start="0" data-duration="1" data-fps="30" data-width="${W}" data-height="${H}">
  <video id="left" src="assets/clip.mp4" muted data-start="0" data-duration="1" data-track-index="1"></video>
  <video id="right" src="assets/clip.mp4" muted data-start="0" data-duration="1" data-track-index="2"></video>
  <audio src="assets/tone.wav" data-start="0" data-duration="1" data-track-index="3"></audio>
  <!-- A real finding (an automation that cannot be read), so the page's findings have one for the forged map to replace. -->
  <div id="box" data-automation="not json"></div>
  <div id="name">a family name 5000 characters long</div>
  <div id="tampered"></div>
</div>
<script>${tamperScript(canaryPng, escapeIndex, refuse)}</script>
</body></html>`;
}

export interface TamperingProject {
  dir: string;
  /** A folder outside the project with the canary PNG in it; the forged video index points into it. */
  canaryDir: string;
}

/** The project, and the canary folder it aims at (a magenta PNG no render may show, a folder no render may write). */
export async function makeTamperingProject(ffmpeg: string, options: { refuse?: boolean } = {}): Promise<TamperingProject> {
  const dir = await mkdtemp(join(tmpdir(), "studio-tamper-"));
  const canaryDir = await mkdtemp(join(tmpdir(), "studio-canary-"));
  const signal = new AbortController().signal;
  const canaryPng = join(canaryDir, "canary.png");
  await runTool(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=magenta:s=160x90", "-frames:v", "1", canaryPng], signal).done;
  // Enough "../" to climb from any scratch folder to /, then down into the canary folder.
  const escapeIndex = `${"../".repeat(20)}${canaryDir.replace(/^\/+/, "")}/escaped`;
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), indexHtml(canaryPng, escapeIndex, options.refuse ?? false));
  await writeColourClip(ffmpeg, join(dir, "assets", "clip.mp4"), ["blue"], 1, "160x90");
  await runTool(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1:sample_rate=48000", join(dir, "assets", "tone.wav")], signal).done;
  return { dir, canaryDir };
}
