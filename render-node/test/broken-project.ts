// A composition with one of each problem the check must find: a console error, a missing image, text wider than
// its box, and an element that GSAP moves off the canvas.
import { CANVAS } from "./make-test-project.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";

export const BROKEN_HTML = `<!doctype html>
<html><head><meta charset="utf-8">
<script src="${GSAP}"></script>
<style>
html, body { margin: 0; width: ${CANVAS.width}px; height: ${CANVAS.height}px; overflow: hidden; background: #000; }
[data-composition-id="main"] { position: relative; width: ${CANVAS.width}px; height: ${CANVAS.height}px; }
[data-composition-id="main"] #title { position: absolute; left: 10px; top: 10px; width: 60px; white-space: nowrap; color: #fff; font: 20px sans-serif; }
[data-composition-id="main"] #stray { position: absolute; left: 0; top: 100px; width: 40px; height: 40px; background: #0af; }
[data-composition-id="main"] img { position: absolute; left: 200px; top: 20px; width: 40px; height: 40px; }
</style></head>
<body>
<div data-composition-id="main" data-start="0" data-duration="1" data-width="${CANVAS.width}" data-height="${CANVAS.height}">
  <div id="title">A title far too long for its sixty pixel box</div>
  <div id="stray"></div>
  <img src="assets/missing.png" alt="">
</div>
<script>
  console.error("planted failure");
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true });
  tl.to("#stray", { x: 400, duration: 0.5, ease: "none" });
  window.__timelines["main"] = tl;
</script>
</body></html>
`;

/** Two more layout problems: text cut off by overflow hidden, and two captions drawn over each other. */
export const CROWDED_HTML = BROKEN_HTML.replace(
  "</style>",
  `[data-composition-id="main"] .caption { position: absolute; top: 60px; color: #fff; font: 16px sans-serif; white-space: nowrap; }
[data-composition-id="main"] #first { left: 100px; }
[data-composition-id="main"] #second { left: 110px; }
[data-composition-id="main"] #boxed { position: absolute; left: 10px; top: 130px; width: 50px; height: 20px; overflow: hidden; white-space: nowrap; color: #fff; font: 16px sans-serif; }
</style>`,
).replace(
  '<div id="stray"></div>',
  '<div id="stray"></div>\n  <div class="caption" id="first">First caption</div>\n  <div class="caption" id="second">Second caption</div>\n  <div id="boxed">Cut off by its box</div>',
);
