// A composition that costs little to render: a box crossing a 320x180 canvas, its GSAP timeline registered (so no
// render waits out the timeline bound). For end-to-end tests where what is rendered is not the point (containers,
// webhooks, MCP results): the 1920x1080 starter costs about ten times its CPU a frame.
export function boxPage(id: string, duration: number): string {
  return `<!doctype html><html><head><meta charset="utf-8"><script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script><style>
html, body { margin: 0; width: 320px; height: 180px; overflow: hidden; background: #000; }
[data-composition-id="${id}"] { position: relative; width: 320px; height: 180px; background: #203040; }
[data-composition-id="${id}"] #box { position: absolute; left: 0; top: 70px; width: 40px; height: 40px; background: #f0c040; }
</style></head><body>
<div data-composition-id="${id}" data-start="0" data-duration="${duration}" data-width="320" data-height="180"><div id="box"></div></div>
<script>
window.__timelines = window.__timelines || {};
const tl = gsap.timeline({ paused: true });
tl.fromTo("#box", { x: 0 }, { x: 280, duration: ${duration}, ease: "none" }, 0);
window.__timelines["${id}"] = tl;
</script></body></html>`;
}
