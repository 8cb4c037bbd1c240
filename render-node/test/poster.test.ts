// A finished render's poster (issue 34, point 5), made by the render node as a process from the file it rendered:
// decoded, it is the frame shown at the composition's data-poster-time (else HyperFrames' moment: the middle of a
// video of 3 s or less), in a video and in a png-sequence's zip; a poster the studio refuses leaves the render done;
// it is made while the output uploads. Its moment is settled once, by the plan the node posts (declared, invalid,
// absent, moved by a range's `from`), and a split render's join makes its poster at the plan's moment, reading no HTML.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { unzipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { RenderPlanSchema, type RenderPlan } from "../../core/protocol/render-plan.ts";
import { planRender } from "../src/plan-render.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { POSTER_FILE } from "../src/poster/make-poster.ts";
import { startNode as startNodeProcess, startStudio } from "./fake-studio.ts";
import { CANVAS, makeTestProject } from "./make-test-project.ts";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** `project`'s index.html with `attributes` on its root. */
async function declare(project: string, attributes: string): Promise<void> {
  const html = await readFile(join(project, "index.html"), "utf8");
  await writeFile(join(project, "index.html"), html.replace('data-composition-id="main" data-start="0"', `data-composition-id="main" ${attributes} data-start="0"`));
}

/** Renders `project` with `options` through the node process; what the fake studio received. */
async function render(project: string, options: Record<string, unknown>, refusePoster?: { status: number; error: string }) {
  const studio = await startStudio(project, options, undefined, "render", refusePoster);
  cleanups.push(studio.close);
  const node = startNodeProcess(studio.url, { NODE_CONCURRENCY: "1" });
  cleanups.push(() => node.child.kill("SIGKILL"));
  await studio.completed;
  return { seen: studio.seen, output: node.output() };
}

/** The RGB pixels of one image or of video frame `frame` (0-based, decoded frame order), at the canvas' size. */
async function decode(binaries: Binaries, file: string, frame?: number): Promise<Buffer> {
  const out = `${file}.${frame ?? "still"}.rgb`;
  const select = frame === undefined ? [] : ["-vf", `select=eq(n\\,${frame})`];
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-i", file, ...select, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", out], new AbortController().signal).done;
  return readFile(out);
}

/** Where the red box's left edge is on the row through its middle (the box moves right, 0 to 200 px, over the video). */
function boxLeft(rgb: Buffer): number {
  const y = 40;
  for (let x = 0; x < CANVAS.width; x++) {
    const i = (y * CANVAS.width + x) * 3;
    if (rgb[i]! > 128 && rgb[i + 1]! < 100 && rgb[i + 2]! < 100) return x;
  }
  return -1;
}

it("an mp4's poster is the frame at the root's data-poster-time, uploaded as image/jpeg beside the output", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  const html = await readFile(join(project, "index.html"), "utf8");
  await writeFile(join(project, "index.html"), html.replace('data-composition-id="main" data-start="0"', 'data-composition-id="main" data-poster-time="1.5" data-start="0"'));
  const { seen, output } = await render(project, { format: "mp4", quality: "draft" });
  expect(seen.complete, output).toEqual({ ok: true });
  expect(seen.posterType).toBe("image/jpeg");
  expect(seen.lines).toContain('poster: frame 45 (1.5 s, data-poster-time="1.5"), ' + seen.poster!.length + " bytes");
  const video = join(project, "received.mp4");
  const poster = join(project, "poster.jpg");
  await writeFile(video, seen.output!);
  await writeFile(poster, seen.poster!);
  // 2 s at 30 fps: the box moves 200/60 px a frame, so the neighbouring frames are told apart by its edge.
  const [still, at45, at44, at46] = await Promise.all([decode(binaries, poster), decode(binaries, video, 45), decode(binaries, video, 44), decode(binaries, video, 46)]);
  expect(still.length).toBe(CANVAS.width * CANVAS.height * 3);
  expect(Math.abs(boxLeft(still) - boxLeft(at45))).toBeLessThanOrEqual(1);
  expect(Math.abs(boxLeft(still) - boxLeft(at44))).toBeGreaterThanOrEqual(2);
  expect(Math.abs(boxLeft(still) - boxLeft(at46))).toBeGreaterThanOrEqual(2);
  expect(boxLeft(at45)).toBeGreaterThan(140);
});

it("a range render's poster is data-poster-time on the composition's clock, moved onto the range's output", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  const html = await readFile(join(project, "index.html"), "utf8");
  await writeFile(join(project, "index.html"), html.replace('data-composition-id="main" data-start="0"', 'data-composition-id="main" data-poster-time="1.25" data-start="0"'));
  // Seconds 0.5 to 1.5: 1.25 s is 0.75 s into the output, its frame 22 (the default moment, its middle, would be 15).
  const { seen, output } = await render(project, { format: "mp4", quality: "draft", from: 0.5, to: 1.5 });
  expect(seen.complete, output).toEqual({ ok: true });
  expect(seen.lines).toContain('poster: frame 22 (0.75 s, data-poster-time="1.25"), ' + seen.poster!.length + " bytes");
  const video = join(project, "received.mp4");
  const poster = join(project, "poster.jpg");
  await writeFile(video, seen.output!);
  await writeFile(poster, seen.poster!);
  const [still, at22, at21, at23] = await Promise.all([decode(binaries, poster), decode(binaries, video, 22), decode(binaries, video, 21), decode(binaries, video, 23)]);
  expect(Math.abs(boxLeft(still) - boxLeft(at22))).toBeLessThanOrEqual(1);
  expect(Math.abs(boxLeft(still) - boxLeft(at21))).toBeGreaterThanOrEqual(2);
  expect(Math.abs(boxLeft(still) - boxLeft(at23))).toBeGreaterThanOrEqual(2);
});

it("a png-sequence's poster is its frame at HyperFrames' moment (the middle of a 2 s video) from the zip", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  const { seen, output } = await render(project, { format: "png-sequence", quality: "draft" });
  expect(seen.complete, output).toEqual({ ok: true });
  expect(seen.lines).toContain(`poster: frame 30 (1 s, the default moment), ${seen.poster!.length} bytes`);
  const frames = unzipSync(new Uint8Array(seen.output!), { filter: (f) => f.name === "frame_000031.png" || f.name === "frame_000030.png" });
  await writeFile(join(project, "frame30.png"), frames["frame_000031.png"]!);
  await writeFile(join(project, "frame29.png"), frames["frame_000030.png"]!);
  await writeFile(join(project, "poster.jpg"), seen.poster!);
  const [still, at30, at29] = await Promise.all([decode(binaries, join(project, "poster.jpg")), decode(binaries, join(project, "frame30.png")), decode(binaries, join(project, "frame29.png"))]);
  expect(Math.abs(boxLeft(still) - boxLeft(at30))).toBeLessThanOrEqual(1);
  expect(Math.abs(boxLeft(still) - boxLeft(at29))).toBeGreaterThanOrEqual(2);
});

it("a GIF's poster is its frame at the default moment (15 fps: frame 15 of 30)", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  const { seen, output } = await render(project, { format: "gif", resolution: null, fps: 15 });
  expect(seen.complete, output).toEqual({ ok: true });
  expect(seen.lines).toContain(`poster: frame 15 (1 s, the default moment), ${seen.poster!.length} bytes`);
  const gif = join(project, "received.gif");
  await writeFile(gif, seen.output!);
  await writeFile(join(project, "poster.jpg"), seen.poster!);
  const [still, at15, at14] = await Promise.all([decode(binaries, join(project, "poster.jpg")), decode(binaries, gif, 15), decode(binaries, gif, 14)]);
  expect(Math.abs(boxLeft(still) - boxLeft(at15))).toBeLessThanOrEqual(1);
  expect(Math.abs(boxLeft(still) - boxLeft(at14))).toBeGreaterThanOrEqual(3);
});

it("a poster the studio refuses leaves the render done, with the reason in its log and its completion", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  const { seen, output } = await render(project, { format: "webm", quality: "draft" }, { status: 413, error: "storage quota full" });
  expect(seen.output).not.toBeNull();
  const complete = seen.complete as { ok: boolean; posterError?: string };
  expect(complete, output).toMatchObject({ ok: true, posterError: expect.stringContaining("storage quota full") });
  expect(seen.lines.some((l) => l.startsWith("poster: none, the render is done without one: ") && l.includes("storage quota full"))).toBe(true);
});

it("the poster is made while the output uploads and goes up once the output is stored: a slow upload and a slow poster end after the longer of the two, not after both", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  // The node's ffmpeg, 4 s slower at making a poster (a loaded machine's pace), as fast as ever at anything else.
  const tools = await mkdtemp(join(tmpdir(), "slow-poster-"));
  const ffmpeg = join(tools, "ffmpeg");
  await writeFile(ffmpeg, `#!/bin/sh\nfor arg in "$@"; do case "$arg" in */${POSTER_FILE}) sleep 4;; esac; done\nexec '${binaries.ffmpeg}' "$@"\n`, { mode: 0o755 });
  cleanups.push(() => void rm(tools, { recursive: true, force: true }));
  // The studio stores the output 4 s after it arrived (a slow upload).
  const studio = await startStudio(project, { format: "mp4", quality: "draft" }, undefined, "render", undefined, undefined, 1, { outputMs: 4000 });
  cleanups.push(studio.close);
  const node = startNodeProcess(studio.url, { NODE_CONCURRENCY: "1", FFMPEG_PATH: ffmpeg });
  cleanups.push(() => node.child.kill("SIGKILL"));
  await studio.completed;
  const { seen } = studio;
  expect(seen.complete, node.output()).toEqual({ ok: true });
  expect(seen.poster).not.toBeNull();
  // Stored after the output: a quota with room for one of them keeps it for the video.
  expect(seen.at.poster!).toBeGreaterThanOrEqual(seen.at.outputAnswered!);
  expect(seen.at.manifest!).toBeGreaterThanOrEqual(seen.at.outputAnswered!);
  // One after the other, the upload and the poster take 8 s and more before the render can complete.
  expect(seen.at.complete! - seen.at.output!, node.output()).toBeLessThan(6500);
});

it("the plan a node posts settles the poster's moment: declared, invalid, absent, and moved by a range's from", async () => {
  const binaries = await resolveBinaries();
  const signal = new AbortController().signal;
  const planOf = async (attributes: string, options: Record<string, unknown> = {}) => {
    const project = await makeTestProject(binaries.ffmpeg);
    await declare(project, attributes);
    const plan = await planRender({ projectDir: project, options: { format: "mp4", quality: "draft", ...options }, binaries, signal });
    // What the Worker stores and hands a split render's join: the moment survives its schema.
    expect(RenderPlanSchema.parse(plan).poster).toEqual(plan.poster);
    return plan.poster;
  };
  // 2 s at 30 fps; the default moment is the middle, frame 30.
  expect(await planOf('data-poster-time="1.5"')).toEqual({ frame: 45, seconds: 1.5, why: 'data-poster-time="1.5"' });
  expect(await planOf('data-poster-time="later"')).toEqual({ frame: 30, seconds: 1, why: 'data-poster-time="later" is not a time within the video, so the default moment' });
  expect(await planOf("")).toEqual({ frame: 30, seconds: 1, why: "the default moment" });
  // Seconds 0.5 to 1.5: the declared 1.25 s is 0.75 s into the output, its frame 22.
  expect(await planOf('data-poster-time="1.25"', { from: 0.5, to: 1.5 })).toEqual({ frame: 22, seconds: 0.75, why: 'data-poster-time="1.25"' });
});

describe("a split render's join", () => {
  /** A join job of one segment (2 s at 30 fps, a red box moving 100 px a second) with `plan`; what the studio received and the segment. */
  async function joinWith(poster: RenderPlan["poster"]) {
    const binaries = await resolveBinaries();
    const project = await makeTestProject(binaries.ffmpeg);
    // The file says 1.5 s (frame 45): a join that read it would show another frame than the plan's.
    await declare(project, 'data-poster-time="1.5"');
    const segment = join(await mkdtemp(join(tmpdir(), "join-poster-")), "segment-0.mp4");
    cleanups.push(() => void rm(dirname(segment), { recursive: true, force: true }));
    const scene = `color=c=black:s=${CANVAS.width}x${CANVAS.height}:r=30:d=2[bg];color=c=red:s=40x40:r=30:d=2[box];[bg][box]overlay=x='t*100':y=20:shortest=1`;
    await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-filter_complex", scene, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-an", segment], new AbortController().signal).done;
    const plan: RenderPlan = {
      composition: "index.html", frames: 60, fps: { num: 30, den: 1 }, fpsText: "30", durationSeconds: 2, ...(poster ? { poster } : {}),
      width: CANVAS.width, height: CANVAS.height, audio: [], findings: [],
    };
    const options = { renderId: "r1", segments: [0], plan, render: { format: "mp4", quality: "draft" } };
    const studio = await startStudio(project, options, undefined, "join", undefined, undefined, 1, {}, [segment]);
    cleanups.push(studio.close);
    const node = startNodeProcess(studio.url, { NODE_CONCURRENCY: "1" });
    cleanups.push(() => node.child.kill("SIGKILL"));
    await studio.completed;
    expect(studio.seen.complete, node.output()).toEqual({ ok: true });
    const still = join(dirname(segment), "poster.jpg");
    await writeFile(still, studio.seen.poster!);
    return { seen: studio.seen, binaries, still };
  }

  it("makes its poster at the plan's moment, not at the one the composition file declares", async () => {
    const { seen, binaries, still } = await joinWith({ frame: 12, seconds: 0.4, why: 'data-poster-time="0.4"' });
    expect(seen.lines.filter((line) => line.startsWith("poster:"))).toEqual([`poster: frame 12 (0.4 s, data-poster-time="0.4"), ${seen.poster!.length} bytes`]);
    // Frame 12 shows the box 40 px in; frame 45, the file's moment, 150 px.
    expect(Math.abs(boxLeft(await decode(binaries, still)) - 40)).toBeLessThanOrEqual(2);
  });

  it("handed a plan without a moment (an older node planned it), takes the default moment of its duration and says so", async () => {
    const { seen, binaries, still } = await joinWith(undefined);
    expect(seen.lines.filter((line) => line.startsWith("poster:"))).toEqual([`poster: frame 30 (1 s, the default moment: the plan names none, made by an older render node), ${seen.poster!.length} bytes`]);
    expect(Math.abs(boxLeft(await decode(binaries, still)) - 100)).toBeLessThanOrEqual(2);
  });
});
