// The incremental re-render benches' composition (bench/incremental.ts in one process, bench/incremental-api.ts
// through the studio): cards moving in every frame, and an end title shown only at the end.
import { GSAP_CDN_URL } from "../../core/composition/match-gsap-url.ts";

export interface Case {
  name: string;
  width: number;
  height: number;
  duration: number;
  /** The edited title shows from here to the end. */
  titleFrom: number;
  goal: number;
}

export const CASES: Case[] = [
  { name: "720p-20s", width: 1280, height: 720, duration: 20, titleFrom: 16, goal: 0.4 },
  { name: "1080p-30s", width: 1920, height: 1080, duration: 30, titleFrom: 25, goal: 0.3 },
];

/** Cards moving and turning in every frame over a gradient, and an end title shown only from `titleFrom`. */
export function composition(c: Case, title: string): string {
  const cards = [["#f43f5e", 0.08], ["#22c55e", 0.27], ["#3b82f6", 0.46], ["#eab308", 0.65]] as const;
  const size = Math.round(c.height * 0.24);
  return `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP_CDN_URL}"></script>
<style>
html, body { margin: 0; width: ${c.width}px; height: ${c.height}px; overflow: hidden; }
#root { position: relative; width: ${c.width}px; height: ${c.height}px; background: linear-gradient(135deg, #0f172a, #312e81); font-family: sans-serif; }
.card { position: absolute; top: ${Math.round(c.height * 0.4)}px; width: ${size}px; height: ${size}px; border-radius: 24px; box-shadow: 0 30px 60px rgba(0,0,0,.4); }
.title { position: absolute; left: ${Math.round(c.width * 0.08)}px; top: ${Math.round(c.height * 0.1)}px; font-size: ${Math.round(c.height / 10)}px; font-weight: 800; color: #fff; }
</style></head><body>
<div id="root" data-composition-id="main" data-start="0" data-duration="${c.duration}" data-width="${c.width}" data-height="${c.height}">
${cards.map(([color, left]) => `  <div class="card" style="left:${Math.round(left * c.width)}px;background:${color}"></div>`).join("\n")}
  <div class="title" data-start="${c.titleFrom}" data-duration="${c.duration - c.titleFrom}">${title}</div>
</div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to(".card", { x: ${Math.round(c.width * 0.2)}, rotation: 720, duration: ${c.duration}, ease: "none" }, 0);
  tl.from(".title", { opacity: 0, y: 40, duration: 1 }, ${c.titleFrom});
  window.__timelines = window.__timelines || {};
  window.__timelines["main"] = tl;
</script>
</body></html>
`;
}
