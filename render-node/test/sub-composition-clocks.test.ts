// Every sub-composition runs on its own clock, as HyperFrames 0.8.170 seeks it (real Chromium, the page opened as a
// render opens it): three levels of <template> files, each host with its own data-start, each timeline at its
// host's local time with its entrance state before its tweens begin; data-start counted from the enclosing
// composition, not a timed parent; a timed element that outlives its timed parent hidden when the parent's clip
// ends; a host without data-duration lasting as long as its timeline. The expected values are what HyperFrames'
// CLI renders for the same files (bench/parity-corpus nested-three-levels, outliving-children).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openComposition } from "../src/browser/open-composition.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";

const binaries = await resolveBinaries();
const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-clocks-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

const root = (body: string, duration: number, script = "") => `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>html, body { margin: 0; width: 320px; height: 180px; overflow: hidden; background: #000; }
#root { position: relative; width: 320px; height: 180px; }</style></head>
<body><div id="root" data-composition-id="main" data-width="320" data-height="180" data-duration="${duration}">${body}</div>
<script>window.__timelines = window.__timelines || {}; const tl = gsap.timeline({ paused: true });${script} window.__timelines["main"] = tl;</script>
</body></html>`;

// A sub-composition as HyperFrames' skill writes one: style, root and script side by side in a <template>, the
// script after the root. Its bar moves 100 px in its first second; `inside` goes in its root.
const level = (id: string, inside = "", script = "") => `<!doctype html>
<html><head><meta charset="utf-8"></head><body><template id="${id}-template">
  <style>#${id}-root { position: absolute; inset: 0; } .${id}-bar { position: absolute; width: 20px; height: 20px; background: #f59e0b; }</style>
  <div id="${id}-root" data-composition-id="${id}" data-width="320" data-height="180">
    <div id="${id}-bar" class="${id}-bar"></div>${inside}
  </div>
  <script>
    window.__timelines = window.__timelines || {};
    const tl = gsap.timeline({ paused: true });
    tl.fromTo(".${id}-bar", { x: 0 }, { x: 100, duration: 1, ease: "none" }, 0);${script}
    window.__timelines["${id}"] = tl;
  </script>
</template></body></html>`;

const host = (id: string, attrs: string) =>
  `<div id="${id}-host" data-composition-id="${id}" data-composition-src="compositions/${id}.html" ${attrs} style="position: absolute; inset: 0"></div>`;

interface Seen {
  shown: boolean;
  x: number;
  opacity: number;
}

/** Seeks the composition to each time and reads what each element shows: on screen or not, translateX, opacity. */
async function watch(dir: string, times: number[], ids: string[]): Promise<Record<number, Record<string, Seen>>> {
  const lines: string[] = [];
  const opened = await openComposition({ projectDir: dir, chrome: binaries.chrome, preferBeginFrame: false, signal: new AbortController().signal, onLine: (line) => lines.push(line) });
  try {
    expect(lines.filter((line) => line.startsWith("finding:"))).toEqual([]);
    const seen: Record<number, Record<string, Seen>> = {};
    for (const t of times) {
      await opened.seek(t);
      seen[t] = await opened.capture.page.evaluate((list: string[]) => {
        const out: Record<string, { shown: boolean; x: number; opacity: number }> = {};
        for (const id of list) {
          const el = document.getElementById(id);
          if (!el) throw new Error(`no #${id} on the page`);
          const style = getComputedStyle(el);
          out[id] = {
            shown: el.checkVisibility({ visibilityProperty: true }),
            x: Math.round(new DOMMatrix(style.transform === "none" ? "" : style.transform).m41),
            opacity: Number(style.opacity),
          };
        }
        return out;
      }, ids);
    }
    return seen;
  } finally {
    await opened.close();
  }
}

describe("sub-composition clocks (HyperFrames 0.8.170's rule)", () => {
  it("seeks three levels of <template> files at each host's local time: data-start added through every level, entrance state before the tweens begin", async () => {
    const dir = await project({
      "index.html": root(host("outer", `data-start="0.5" data-duration="2.5"`), 3),
      "compositions/outer.html": level("outer", host("middle", `data-start="0.4" data-duration="2"`)),
      "compositions/middle.html": level("middle", host("inner", `data-start="0.3" data-duration="1.5"`)),
      // The tag's entrance begins 0.4 s into the inner clip: before that it shows its from-state (transparent).
      "compositions/inner.html": level("inner", `<div id="tag" class="tag" style="position: absolute; left: 200px; width: 40px; height: 20px; background: #a3e635"></div>`,
        `\n    tl.fromTo(".tag", { opacity: 0 }, { opacity: 1, duration: 0.4, ease: "none" }, 0.4);`),
    });
    const seen = await watch(dir, [0.2, 0.7, 1.5, 1.8, 2.9], ["outer-bar", "middle-bar", "inner-bar", "tag"]);
    // Hosts start at 0.5, 0.9 and 1.2 s on the root timeline.
    expect(seen[0.2]!["outer-bar"]!.shown).toBe(false);
    expect(seen[0.7]).toMatchObject({ "outer-bar": { shown: true, x: 20 }, "middle-bar": { shown: false }, "inner-bar": { shown: false } });
    expect(seen[1.5]).toMatchObject({
      "outer-bar": { shown: true, x: 100 },
      "middle-bar": { shown: true, x: 60 },
      "inner-bar": { shown: true, x: 30 },
      tag: { shown: true, opacity: 0 },
    });
    expect(seen[1.8]).toMatchObject({ "inner-bar": { shown: true, x: 60 }, tag: { shown: true, opacity: 0.5 } });
    // Past each timeline's end, it holds its last state; the inner clip ended at 2.7 s, the middle at 2.9 s.
    expect(seen[2.9]).toMatchObject({ "outer-bar": { shown: true, x: 100 }, "middle-bar": { shown: false }, "inner-bar": { shown: false } });
  });

  it("counts a data-start from the enclosing composition, hides what outlives its timed parent, ends a host with no data-duration with its timeline", async () => {
    const dir = await project({
      "index.html": root(
        `<div id="panel" data-start="0.5" data-duration="1" style="position: absolute; width: 100px; height: 80px; background: #334155">
           <div id="chip" data-start="0.25" data-duration="1.5" style="width: 40px; height: 40px; background: #facc15"></div>
         </div>
         ${host("card", `data-start="0.2" data-duration="1"`)}
         ${host("pulse", `data-start="0.4"`)}`,
        2,
      ),
      "compositions/card.html": level("card", `<div id="late" data-start="0.5" data-duration="1.5" style="position: absolute; top: 40px; width: 40px; height: 40px; background: #f472b6"></div>`),
      // A 1 s timeline (the bar's tween), and no data-duration on its host.
      "compositions/pulse.html": level("pulse"),
    });
    const seen = await watch(dir, [0.3, 0.6, 1.1, 1.3, 1.6], ["panel", "chip", "late", "card-bar", "pulse-bar"]);
    // The chip starts 0.25 s into the root's composition (not 0.25 s into the panel): on screen with the panel at 0.6 s.
    expect(seen[0.3]).toMatchObject({ panel: { shown: false }, chip: { shown: false } });
    expect(seen[0.6]).toMatchObject({ panel: { shown: true }, chip: { shown: true }, late: { shown: false } });
    // The card's clip starts at 0.7 s (0.5 s into the card) and ends with the card at 1.2 s.
    expect(seen[1.1]).toMatchObject({ late: { shown: true }, "card-bar": { shown: true } });
    expect(seen[1.3]).toMatchObject({ late: { shown: false }, "card-bar": { shown: false }, chip: { shown: true } });
    // The chip outlives the panel (1.75 s against 1.5 s): hidden with it.
    expect(seen[1.6]).toMatchObject({ panel: { shown: false }, chip: { shown: false } });
    // The pulse host started at 0.4 s and lasts as long as its timeline, 1 s (the bar's tween): gone at 1.6 s.
    expect(seen[1.3]!["pulse-bar"]).toMatchObject({ shown: true, x: 90 });
    expect(seen[1.6]!["pulse-bar"]!.shown).toBe(false);
  });
});
