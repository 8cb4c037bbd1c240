// The first fixed segment captured by every browser at once (capture-chunks.ts, segment-shares.ts): the browsers take
// contiguous shares of its frames and all of them are written into the segment's one encoder in frame order, so the
// first live piece is ready after about half a segment's capture on two browsers. The output is the one-browser
// render's, decoded frame for frame and each segment byte for byte, a hold across a shares' boundary included.
// The shares' ordering as data first, then real Chromium and real ffmpeg on tiny frames.
import { createHash } from "node:crypto";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { segmentShares, type ShareTarget } from "../src/capture/segment-shares.ts";
import { renderProject } from "../src/render-project.ts";
import type { FrameDone } from "../src/capture/render-frame-range.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { StageTimeout } from "../src/bounds/deadline.ts";
import { isAlive, listDescendants } from "./inspect-video.ts";

/** A target that records what it is handed and when it is finished; `finish` resolves when `finished` is called. */
function recordingTarget() {
  const written: string[] = [];
  const events: string[] = [];
  let release = () => {};
  const target: ShareTarget = {
    hand: async (data) => {
      written.push(data.toString());
    },
    failure: () => null,
    finish: () => {
      events.push("finish");
      return new Promise<void>((resolve) => (release = resolve));
    },
    abandon: () => events.push("abandon"),
  };
  return { target, written, events, finished: () => release() };
}

const frame = (name: string) => Buffer.from(name);
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("segmentShares: one segment's frames from several browsers, into its encoder in frame order", () => {
  it("a later share's frames wait until every share before it is written, then go in as they come", async () => {
    const { target, written, events, finished } = recordingTarget();
    let started = 0;
    const shares = segmentShares(3, () => (started++, target), { maxPendingBytes: 1000, signal: new AbortController().signal });
    const [a, b, c] = [shares.open(0), shares.open(1), shares.open(2)];
    expect(started).toBe(1);
    // Interleaved as three browsers would hand them.
    await b.hand(frame("b1"), () => "b1");
    await a.hand(frame("a1"), () => "a1");
    await c.hand(frame("c1"), () => "c1");
    await b.hand(frame("b2"), () => "b2");
    await a.hand(frame("a2"), () => "a2");
    expect(written).toEqual(["a1", "a2"]);
    // The third share is done before the second: it waits.
    const doneC = c.close();
    const doneA = a.close();
    await tick();
    expect(written).toEqual(["a1", "a2", "b1", "b2"]);
    await b.hand(frame("b3"), () => "b3");
    expect(written).toEqual(["a1", "a2", "b1", "b2", "b3"]);
    expect(events).toEqual([]);
    const doneB = b.close();
    await tick();
    expect(written).toEqual(["a1", "a2", "b1", "b2", "b3", "c1"]);
    expect(events).toEqual(["finish"]);
    // Every share's completion is the segment's: done once the encoder has finished.
    let settled = false;
    void Promise.all([doneA, doneB, doneC]).then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    finished();
    await Promise.all([doneA, doneB, doneC]);
  });

  it("a share that begins inside a hold hands the picture before it again: the last one the shares before it wrote", async () => {
    const { target, written } = recordingTarget();
    const shares = segmentShares(2, () => target, { maxPendingBytes: 1000, signal: new AbortController().signal });
    const [a, b] = [shares.open(0), shares.open(1)];
    await b.handAgain((picture) => frame(`header of ${picture.toString()}`), () => "b1");
    await b.handAgain(null, () => "b2");
    await b.handPicture(frame("b3"), () => "b3");
    await a.hand(frame("a1 header"), () => "a1");
    await a.handPicture(frame("a1"), () => "a1");
    await a.handPicture(frame("a2"), () => "a2");
    void a.close();
    await tick();
    expect(written).toEqual(["a1 header", "a1", "a2", "header of a2", "a2", "a2", "b3"]);
  });

  it("a later share past its buffer waits its turn", async () => {
    const { target, written } = recordingTarget();
    const shares = segmentShares(2, () => target, { maxPendingBytes: 3, signal: new AbortController().signal });
    const [a, b] = [shares.open(0), shares.open(1)];
    await b.hand(frame("b1"), () => "b1");
    let handed = false;
    const waiting = b.hand(frame("b2"), () => "b2").then(() => (handed = true));
    await tick();
    expect(handed).toBe(false);
    await a.hand(frame("a1"), () => "a1");
    void a.close();
    await waiting;
    expect(written).toEqual(["a1", "b1", "b2"]);
  });

  it("a share that fails loses the segment: the others fail with its error, the encoder is abandoned, never finished", async () => {
    const { target, written, events } = recordingTarget();
    const shares = segmentShares(2, () => target, { maxPendingBytes: 3, signal: new AbortController().signal });
    const [a, b] = [shares.open(0), shares.open(1)];
    await b.hand(frame("b1"), () => "b1");
    const waiting = b.hand(frame("b2"), () => "b2");
    const completion = b.close();
    const hung = new Error("frame 5 of 90 (at 0.133 s) did not finish seeking in 10 s");
    a.abandon(hung);
    await expect(waiting).rejects.toBe(hung);
    await expect(completion).rejects.toBe(hung);
    await expect(b.hand(frame("b3"), () => "b3")).rejects.toBe(hung);
    expect(written).toEqual([]);
    expect(events).toEqual(["abandon"]);
  });

  it("a cancel frees a share waiting its turn", async () => {
    const { target } = recordingTarget();
    const cancel = new AbortController();
    const shares = segmentShares(2, () => target, { maxPendingBytes: 3, signal: cancel.signal });
    shares.open(0);
    const b = shares.open(1);
    await b.hand(frame("b1"), () => "b1");
    const waiting = b.hand(frame("b2"), () => "b2");
    cancel.abort(new Error("render cancelled"));
    await expect(waiting).rejects.toThrow("render cancelled");
  });
});

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
const FPS = 30;

/**
 * 3 s at 30 fps, 160x90: three fixed segments of 30 frames. The box moves to 0.4 s, holds until 0.6 s (frames 13 to
 * 17 are the frame before again: reused, across a boundary between shares), moves again, then falls until the end.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>html, body { margin: 0; width: 160px; height: 90px; background: #000; } #box { position: absolute; width: 20px; height: 20px; background: #f80; }</style>
</head><body>
<div data-composition-id="main" data-start="0" data-duration="3" data-width="160" data-height="90"><div id="box"></div></div>
<script>
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true });
  tl.to("#box", { x: 60, duration: 0.4, ease: "none" }, 0)
    .to("#box", { x: 130, duration: 0.4, ease: "none" }, 0.6)
    .to("#box", { y: 65, duration: 2, ease: "none" }, 1);
  window.__timelines["main"] = tl;
</script>
</body></html>`;

describe("the first segment shared by two browsers, in a real render", () => {
  let binaries: Binaries;
  let dir: string;
  beforeAll(async () => {
    binaries = await resolveBinaries();
    dir = await mkdtemp(join(tmpdir(), "studio-shared-first-"));
    await writeFile(join(dir, "index.html"), PAGE);
  });

  interface Run {
    output: string;
    /** Frames in the order they were handed to the encoders. */
    frames: FrameDone[];
    /** Segments in the order they were reported done, each with its file's hash. */
    segments: { index: number; range: { start: number; end: number }; sha: string }[];
    lines: string[];
  }

  async function render(name: string, concurrency: number, format: "mp4" | "webm", range: { from?: number; to?: number } = {}): Promise<Run> {
    const run: Run = { output: join(dir, `${name}.${format}`), frames: [], segments: [], lines: [] };
    await renderProject({
      projectDir: dir, outputPath: run.output, format, quality: "draft", fps: FPS, concurrency, binaries, ...range,
      signal: new AbortController().signal,
      onLine: (line) => run.lines.push(line),
      onFrame: (done) => run.frames.push(done),
      onSegment: async (segment) => {
        const sha = createHash("sha256").update(await readFile(segment.path)).digest("hex");
        run.segments.push({ index: segment.index, range: segment.range, sha });
      },
    });
    return run;
  }

  const decoded = (file: string) =>
    runTool(binaries.ffmpeg, ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"], new AbortController().signal).done
      .then((text) => text.split("\n").filter((line) => line && !line.startsWith("#")).map((line) => line.split(",").at(-1)!.trim()));
  const reusedAt = (run: Run) => run.frames.filter((f) => f.reused).map((f) => f.index).sort((x, y) => x - y);
  const shaOf = (run: Run, index: number) => run.segments.find((s) => s.index === index)?.sha;
  /** Whether frames [start, end) were handed in another order than theirs (several browsers at once). */
  const outOfOrder = (order: number[], start: number, end: number) => {
    const these = order.filter((i) => i >= start && i < end);
    return these.some((frame, at) => at > 0 && frame < these[at - 1]!);
  };

  it.each(["mp4", "webm"] as const)("%s: two browsers capture the first segment's shares at once, its piece is done first, the video is the one-browser render's", async (format) => {
    const two = await render(`two-${format}`, 2, format);
    const one = await render(`one-${format}`, 1, format);
    expect(two.lines).toContain("capturing with beginFrame, 2 browsers");
    // The first segment's frames came from two browsers at once: not handed in frame order. The hold is reused as
    // from one browser, across the boundary between two shares too (a share that begins inside it hands the
    // picture the share before captured).
    const order = two.frames.map((f) => f.index);
    expect(outOfOrder(order, 0, 30)).toBe(true);
    expect(outOfOrder(one.frames.map((f) => f.index), 0, 30)).toBe(false);
    expect(reusedAt(one)).toEqual([13, 14, 15, 16, 17]);
    expect(reusedAt(two)).toEqual(reusedAt(one));
    // The first segment's frames are all captured after about one segment's frames in all, where one browser per
    // segment had captured about two segments' (the other browser capturing the second segment meanwhile); its
    // piece is the first done.
    expect(order.indexOf(29) + 1).toBeLessThan(45);
    expect(two.segments.map((s) => s.index).sort()).toEqual([0, 1, 2]);
    expect(two.segments[0]!.index).toBe(0);
    // The same frames, the same segment files.
    for (const index of [0, 1, 2]) expect(shaOf(two, index)).toBe(shaOf(one, index));
    const [decodedTwo, decodedOne] = await Promise.all([decoded(two.output), decoded(one.output)]);
    expect(decodedTwo).toHaveLength(90);
    expect(decodedTwo).toEqual(decodedOne);
  });

  it("a range render's partial first segment is shared too, and is the one-browser render's", async () => {
    // From 0.2 s to 2.5 s: frames 6 to 74; the first segment is frames 6 to 29.
    const two = await render("range-two", 2, "mp4", { from: 0.2, to: 2.5 });
    const one = await render("range-one", 1, "mp4", { from: 0.2, to: 2.5 });
    expect(two.segments.find((s) => s.index === 0)!.range).toEqual({ start: 6, end: 30 });
    expect(outOfOrder(two.frames.map((f) => f.index), 6, 30)).toBe(true);
    for (const index of [0, 1, 2]) expect(shaOf(two, index)).toBe(shaOf(one, index));
    expect(await decoded(two.output)).toEqual(await decoded(one.output));
  });
});

describe("a share that hangs", () => {
  it("fails the render naming its frame, the other browser and the segment's encoder stopped with it", async () => {
    const binaries = await resolveBinaries();
    const dir = await mkdtemp(join(tmpdir(), "studio-shared-hang-"));
    // 2 s at 30 fps; a seek into [0.2 s, 0.3 s) never returns: frames 7 to 9, inside the first segment's second
    // share (frames 6 to 10), which only one browser meets; the other goes on with the shares after it until the
    // bound runs out. The frame named is the first that hangs, as from one browser.
    await writeFile(join(dir, "index.html"), PAGE.replace('data-duration="3"', 'data-duration="2"').replace(
      'const tl = gsap.timeline({ paused: true });',
      'const tl = gsap.timeline({ paused: true, onUpdate() { if (tl.time() >= 0.2 && tl.time() < 0.3) while (true) {} } });',
    ));
    const before = new Set(listDescendants(process.pid));
    let during: number[] = [];
    const sample = setInterval(() => {
      during = [...new Set([...during, ...listDescendants(process.pid).filter((pid) => !before.has(pid))])];
    }, 200);
    const outcome = await renderProject({
      projectDir: dir, outputPath: join(dir, "out.mp4"), format: "mp4", quality: "draft", fps: FPS, concurrency: 2, binaries,
      bounds: { pageLoadMs: 10_000, timelineMs: 5000, frameMs: 2000, encodeMs: 10_000 }, signal: new AbortController().signal,
    }).then(() => null, (error: unknown) => error);
    clearInterval(sample);
    expect(outcome).toBeInstanceOf(StageTimeout);
    expect((outcome as Error).message).toMatch(/^frame 7 of 60 \(at 0\.200 s\) did not finish seeking in 2 s/);
    const deadline = Date.now() + 3000;
    while (during.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter(isAlive)).toEqual([]);
    expect(listDescendants(process.pid).filter((pid) => !before.has(pid))).toEqual([]);
  });
});
