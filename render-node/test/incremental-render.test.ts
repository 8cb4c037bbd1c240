// Incremental re-render in real renders (real Chromium, real ffmpeg): a render handed the previous render of the
// same composition (its output and manifest) carries the fixed segments whose every frame's fingerprint is the
// previous render's, and its video equals a full render of the edited files decoded frame for frame. Edits that
// only look local (a global CSS rule, a script that copies the edited text elsewhere, a font, a variable, a clip
// moved in time) carry nothing they touch; an audio change carries the video and mixes the sound again.
import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderProject, type RenderResult } from "../src/render-project.ts";
import type { CarryManifest } from "../src/carry/carry-manifest.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
const W = 160;
const H = 90;
// 4 s at 10 fps: four fixed segments of 1 s (10 frames each).
const FPS = 10;
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const OTHER_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

let binaries: Binaries;
let out: string;
let tone: string;

beforeAll(async () => {
  binaries = await resolveBinaries();
  out = await mkdtemp(join(tmpdir(), "studio-incremental-"));
  tone = join(out, "tone.wav");
  await runTool(binaries.ffmpeg, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=48000", tone], new AbortController().signal).done;
});

interface Edit {
  /** The end title's text (shown from `titleStart` to the end, in the last two segments). */
  title?: string;
  titleStart?: number;
  /** The text of A, an end element too, which a timeline callback copies into label B (shown from the start). */
  a?: string;
  /** One more rule in the page's stylesheet. */
  css?: string;
  /** The sound's data-volume. */
  volume?: number;
  /** A label that counts how often a timeline callback at 2.2 s ran: seeking back across it does not undo it. */
  counter?: boolean;
}

/**
 * The composition: a box moving in every frame, an end title (hidden until `titleStart`), a label B shown from 0 s
 * whose text a timeline callback at 0.5 s copies from A (an end element, hidden until 2.5 s), a sound, a timeline callback that throws at 1 s
 * (in the second segment, which the edits carry), text in a project font.
 */
function page(edit: Edit): string {
  return `<!doctype html><html><head><meta charset="utf-8"><script src="${GSAP}"></script><style>
@font-face { font-family: "Project"; src: url("fonts/project.ttf"); }
html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; font-family: "Project"; }
[data-composition-id="main"] { position: relative; width: ${W}px; height: ${H}px; background: #102030; }
#box { position: absolute; left: 0; top: 10px; width: 20px; height: 20px; background: #f0c040; }
.label { position: absolute; left: 10px; top: 40px; font-size: 14px; color: #fff; }
#title { position: absolute; left: 10px; top: 62px; font-size: 16px; color: #80f0a0; }
${edit.css ?? ""}</style></head><body>
<div data-composition-id="main" data-start="0" data-duration="4" data-width="${W}" data-height="${H}">
<div id="box"></div>
<div class="label" id="b">?</div>
<div id="a" class="label" style="top: 25px" data-start="2.5" data-duration="1.5">${edit.a ?? "Alpha"}</div>
<div id="title" data-start="${edit.titleStart ?? 2.5}" data-duration="${4 - (edit.titleStart ?? 2.5)}">${edit.title ?? "Version A"}</div>
<audio src="assets/tone.wav" data-start="0" data-duration="3" data-volume="${edit.volume ?? 0.8}"></audio>
${edit.counter ? `<div class="label" id="counter" style="left: 120px">0</div>` : ""}
</div>
<script>
window.__timelines = window.__timelines || {};
const tl = gsap.timeline({ paused: true });
tl.fromTo("#box", { x: 0 }, { x: 130, duration: 4, ease: "none" }, 0);
tl.call(() => { document.getElementById("b").textContent = "B: " + document.getElementById("a").textContent; }, null, 0.5);
tl.call(() => { throw new Error("boom at one second"); }, null, 1);
${edit.counter ? `let runs = 0;
tl.call(() => { document.getElementById("counter").textContent = String(++runs); }, null, 2.2);` : ""}
window.__timelines["main"] = tl;
</script></body></html>`;
}

async function project(edit: Edit, font = FONT): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-incremental-project-"));
  await mkdir(join(dir, "fonts"));
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), page(edit));
  await copyFile(font, join(dir, "fonts", "project.ttf"));
  await copyFile(tone, join(dir, "assets", "tone.wav"));
  return dir;
}

interface Run {
  result: RenderResult;
  output: string;
  lines: string[];
}

let count = 0;
async function render(dir: string, previous: Run | null, options: { variables?: Record<string, unknown> } = {}): Promise<Run> {
  const output = join(out, `render-${count++}.mp4`);
  const lines: string[] = [];
  const result = await renderProject({
    projectDir: dir, outputPath: output, fps: FPS, format: "mp4", quality: "draft", concurrency: 2, ...options,
    previous: previous ? { outputPath: previous.output, manifest: previous.result.carry!.manifest } : null,
    signal: new AbortController().signal, onLine: (l) => lines.push(l),
  });
  return { result, output, lines };
}

/** Every decoded frame's MD5 (video), then the decoded sound's. */
async function decoded(file: string): Promise<{ video: string[]; audio: string }> {
  const md5 = (map: string) => runTool(binaries.ffmpeg, ["-v", "error", "-i", file, "-map", map, "-f", map === "0:v" ? "framemd5" : "md5", "-"], new AbortController().signal).done;
  const video = (await md5("0:v")).split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split(",").at(-1)!.trim());
  return { video, audio: (await md5("0:a")).trim() };
}

/** The carried render equals a full render of the same files, decoded frame for frame and sound for sound. */
async function expectEqualToFull(run: Run, dir: string, options: { variables?: Record<string, unknown> } = {}): Promise<void> {
  const full = await render(dir, null, options);
  expect(full.result.carry!.carriedSegments).toBe(0);
  const [a, b] = await Promise.all([decoded(run.output), decoded(full.output)]);
  expect(a.video.length).toBe(40);
  const firstDifference = a.video.findIndex((m, i) => m !== b.video[i]);
  expect(firstDifference, `frame ${firstDifference} differs from a full render`).toBe(-1);
  expect(a.audio).toBe(b.audio);
}

const manifestOf = (run: Run): CarryManifest => run.result.carry!.manifest;

describe("incremental re-render", () => {
  let first: Run;
  beforeAll(async () => {
    first = await render(await project({}), null);
  });

  it("a render leaves every frame's fingerprint, each naming another picture", async () => {
    expect(manifestOf(first).fingerprints).toHaveLength(40);
    expect(manifestOf(first).fingerprints.every((f) => /^[0-9a-f]{16}$/.test(f))).toBe(true);
    // Something moves in every frame: no two frames share a fingerprint.
    expect(new Set(manifestOf(first).fingerprints).size).toBe(40);
  });

  it("an edit of the end title carries the first two segments and renders the last two; the video equals a full render", async () => {
    const dir = await project({ title: "Version B" });
    const run = await render(dir, first);
    expect(run.result.carry!.carriedSegments).toBe(2);
    expect(run.result.carry!.carriedFrames).toBe(20);
    expect(run.lines).toContain("segments carried from the previous render: 2 of 4 (20 frames not captured or encoded)");
    // A carried frame hides no finding: the callback that throws at 1 s (a carried frame) is still reported.
    expect(run.result.findings.map((f) => f.message).join("\n")).toMatch(/boom at one second/);
    await expectEqualToFull(run, dir);
  });

  it("an edit of A, shown only at the end but copied by a script into a label shown from the start, carries nothing", async () => {
    const run = await render(await project({ a: "Omega" }), first);
    expect(run.result.carry!.carriedSegments).toBe(0);
    // Frames 0 to 4 (before the callback copies A into B) are the same; from 0.5 s on, B reads otherwise.
    expect(manifestOf(run).fingerprints.slice(0, 5)).toEqual(manifestOf(first).fingerprints.slice(0, 5));
    expect(manifestOf(run).fingerprints[5]).not.toBe(manifestOf(first).fingerprints[5]);
  });

  it("a global CSS rule, a font file and a variable carry nothing", async () => {
    const css = await render(await project({ css: "#box { border-radius: 4px; }" }), first);
    expect(css.result.carry!.carriedSegments).toBe(0);
    const font = await render(await project({}, OTHER_FONT), first);
    expect(font.result.carry!.carriedSegments).toBe(0);
    expect(font.lines.join("\n")).toMatch(/nothing carried from the previous render: it was made from other scripts, styles, files, fonts or options/);
    const variable = await render(await project({}), first, { variables: { accent: "red" } });
    expect(variable.result.carry!.carriedSegments).toBe(0);
  });

  it("a clip moved later in time is rendered again where it shows now, the rest carried; the video equals a full render", async () => {
    // The title's start moves from 2.5 s to 3 s: the segment of 2 to 3 s, where it showed and no longer does, is
    // rendered, and so is the last, where it shows with other timing attributes (a visible element's attributes are
    // in the fingerprint: the proof does not know which attributes paint). The first two are carried.
    const later = await project({ titleStart: 3 });
    const moved = await render(later, first);
    expect(moved.result.carry!.carriedSegments).toBe(2);
    expect(moved.lines).toContain("segments carried from the previous render: 2 of 4 (20 frames not captured or encoded)");
    await expectEqualToFull(moved, later);
  });

  it("a change of the sound carries the video and mixes the sound again: equal to a full render", async () => {
    const dir = await project({ volume: 0.3 });
    const run = await render(dir, first);
    expect(run.result.carry!.carriedSegments).toBe(4);
    await expectEqualToFull(run, dir);
  });

  it("a page that shows another picture when sought back is rendered again without carrying: equal to a full render", async () => {
    // The title's edit (from 2.5 s) is past the first frame of its segment (2 to 3 s), so the capture seeks back to
    // 2 s; crossing the callback at 2.2 s backwards runs it again, the counter reads otherwise, and a frame sought
    // again no longer shows what it showed going forward: nothing can be carried, the render starts over.
    const before = await render(await project({ counter: true }), null);
    const dir = await project({ counter: true, title: "Version B" });
    const run = await render(dir, before);
    expect(run.lines.join("\n")).toMatch(/looked otherwise when sought again after seeking back; rendering again without carrying/);
    expect(run.result.carry!.carriedSegments).toBe(0);
    expect(run.lines.some((line) => line.startsWith("segments carried from the previous render"))).toBe(false);
    await expectEqualToFull(run, dir);
  });
});
