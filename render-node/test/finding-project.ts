// A project whose sub-composition breaks in the ways a page reports as findings: a script that throws while it
// mounts (with a message worded like another finding, so anything reading findings back from text would misfile
// it), a timeline callback that throws when the render seeks past 0.5 s, and an image that is not in the project.
import { CANVAS } from "./make-test-project.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
/** A script error's text that reads like a missing-asset line. */
export const DECOY_ERROR = "missing asset: decoy.png (referenced by index.html) is not in the project";

export const FINDING_PROJECT: Record<string, string> = {
  "index.html": `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>html, body { margin: 0; width: ${CANVAS.width}px; height: ${CANVAS.height}px; overflow: hidden; background: #000; }</style></head>
<body>
<div data-composition-id="main" data-start="0" data-duration="1" data-width="${CANVAS.width}" data-height="${CANVAS.height}">
  <div data-composition-id="intro" data-composition-src="compositions/intro.html" data-start="0" data-duration="1"></div>
</div>
<script>
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true });
  tl.to({}, { duration: 1 });
  window.__timelines["main"] = tl;
</script>
</body></html>`,
  "compositions/intro.html": `<template>
<div data-composition-id="intro" data-width="${CANVAS.width}" data-height="${CANVAS.height}">
  <img src="assets/not-uploaded.png" alt="" style="width: 40px; height: 40px">
  <script>
    const tl = gsap.timeline({ paused: true });
    tl.to({}, { duration: 1 });
    tl.call(() => { throw new Error("callback broke"); }, [], 0.5);
    window.__timelines["intro"] = tl;
    throw new Error(${JSON.stringify(DECOY_ERROR)});
  </script>
</div>
</template>`,
};
