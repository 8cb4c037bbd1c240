// The compositions bench/render-speed.ts renders: the reference composition (render-node/bench/bench-render.ts), the
// starter every new project gets (core/composition/starter.ts), a composition with long holds and a 60 s one.
// Each case writes its project into a fresh temp folder and says how it is rendered.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { starterComposition } from "../../core/composition/starter.ts";
import { GSAP_CDN_URL } from "../../core/composition/match-gsap-url.ts";
import { makeBenchProject } from "../../render-node/bench/bench-render.ts";

export type Quality = "draft" | "standard" | "high";

export interface SpeedCase {
  name: string;
  what: string;
  quality: Quality;
  frames: number;
  /** Rendered by HyperFrames too (pairs), or by ours only (wall time against `goalSeconds`). */
  reference: boolean;
  /** Goal: ours/theirs median ratio at most this (reference cases). */
  goalRatio?: number;
  /** Goal: our wall time at most this (cases without reference). */
  goalSeconds?: number;
  make(ffmpeg: string): Promise<string>;
}

async function projectWith(html: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-speed-"));
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), html);
  return dir;
}

/**
 * Cards and a title moving over a gradient for `duration` seconds. With holds, motion happens in the first half
 * of every 5 s and the second half is still: half the frames repeat the one before.
 */
export function movingCards(duration: number, holds: boolean): string {
  const cards = [["#f43f5e", 160], ["#22c55e", 520], ["#3b82f6", 880], ["#eab308", 1240]] as const;
  const moves: string[] = [];
  for (let at = 0, step = 0; at < duration; at += 5, step++) {
    const length = holds ? Math.min(2.5, duration - at) : Math.min(5, duration - at);
    const dx = step % 2 ? -300 : 300;
    moves.push(`tl.to(".card", { x: "+=${dx}", rotation: "+=90", duration: ${length}, ease: "sine.inOut", stagger: 0 }, ${at});`);
    moves.push(`tl.to(".title", { y: ${step % 2 ? 0 : 40}, duration: ${length} }, ${at});`);
  }
  return `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP_CDN_URL}"></script>
<style>
html, body { margin: 0; width: 1920px; height: 1080px; overflow: hidden; }
#root { position: relative; width: 1920px; height: 1080px; background: linear-gradient(135deg, #0f172a, #312e81); font-family: sans-serif; }
.title { position: absolute; left: 160px; top: 140px; font-size: 110px; font-weight: 800; color: #fff; }
.card { position: absolute; top: 420px; width: 260px; height: 260px; border-radius: 32px; box-shadow: 0 30px 60px rgba(0,0,0,.4); }
</style></head><body>
<div id="root" data-composition-id="speed" data-start="0" data-duration="${duration}" data-width="1920" data-height="1080">
  <div class="title">${holds ? "Holds" : "Sixty seconds"}</div>
${cards.map(([color, left]) => `  <div class="card" style="left:${left}px;background:${color}"></div>`).join("\n")}
</div>
<script>
  const tl = gsap.timeline({ paused: true });
  ${moves.join("\n  ")}
  tl.set({}, {}, ${duration});
  window.__timelines = window.__timelines || {};
  window.__timelines["speed"] = tl;
</script>
</body></html>
`;
}

export const SPEED_CASES: SpeedCase[] = [
  {
    name: "reference", what: "bench-render.ts: 6 s 1080p30, a sub-composition, audio; standard", quality: "standard", frames: 180,
    reference: true, goalRatio: 0.4, make: (ffmpeg) => makeBenchProject(ffmpeg, { gsap: "local", fonts: "project" }),
  },
  {
    name: "starter", what: "the new-project starter (two blurred glows, a title), 4 s 1080p30; draft", quality: "draft", frames: 120,
    reference: true, goalRatio: 0.5, make: () => projectWith(starterComposition({ compositionId: "starter", title: "Starter", duration: 4 })),
  },
  {
    name: "holds", what: "20 s 1080p30, half the frames still (2.5 s moves, 2.5 s holds); standard", quality: "standard", frames: 600,
    reference: true, goalRatio: 0.25, make: () => projectWith(movingCards(20, true)),
  },
  {
    name: "long", what: "60 s 1080p30 of continuous motion, one node; standard", quality: "standard", frames: 1800,
    reference: false, goalSeconds: 60, make: () => projectWith(movingCards(60, false)),
  },
];
