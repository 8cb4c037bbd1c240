// The render node as a process (node render-node/main.ts) against a small real HTTP server speaking the job protocol.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { startNode as startNodeProcess, startStudio } from "./fake-studio.ts";
import { makeTestProject } from "./make-test-project.ts";
import { probeStreams } from "./inspect-video.ts";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function startNode(url: string, env: Record<string, string> = {}) {
  const node = startNodeProcess(url, env);
  cleanups.push(() => node.child.kill("SIGKILL"));
  return node;
}

it("claims a job, renders it, streams the output up and completes", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  const studio = await startStudio(project, { format: "webm", quality: "draft" });
  cleanups.push(studio.close);
  const node = startNode(studio.url);
  await studio.completed;
  expect(studio.seen.complete, node.output()).toEqual({ ok: true });
  expect(studio.seen.unauthorized).toBe(0);
  expect(studio.seen.outputType).toBe("video/webm");
  expect(studio.seen.lines).toContain("loading composition index.html");
  expect(studio.seen.lines.some((l) => l.startsWith("frame 60/60 (100%)"))).toBe(true);
  const file = join(project, "received.webm");
  await writeFile(file, studio.seen.output!);
  const streams = await probeStreams(binaries.ffprobe, file);
  expect(streams.map((s) => s.codec_name)).toEqual(["vp9", "opus"]);
});

it("downloads the project's files side by side: four files the studio answers a second late each come down in about a second, not four", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  await writeFile(join(project, "assets", "notes.txt"), "a fourth file");
  const studio = await startStudio(project, { format: "mp4", quality: "draft" }, undefined, "render", undefined, undefined, 1, { fileMs: 1000 });
  cleanups.push(studio.close);
  const node = startNode(studio.url);
  await studio.completed;
  expect(studio.seen.complete, node.output()).toEqual({ ok: true });
  expect(studio.seen.lines).toContain("downloaded 4 project files");
  expect(studio.seen.filesAtOnce).toBe(4);
  // The render's own account of it: its timeline's download stage (one after another: 4 s and more).
  const timeline = studio.seen.lines.find((l) => l.startsWith("timeline: ")) ?? "";
  const [, from, to] = /downloading ([\d.]+)–([\d.]+) s/.exec(timeline) ?? [];
  expect(Number(to) - Number(from), timeline).toBeLessThan(2.5);
});

it("uploads the carry manifest beside the output; handed it back as the previous render, the next render carries it and says so; a previous render it cannot download means a full render, said in the log", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  const options = { format: "mp4", quality: "draft" };
  const first = await startStudio(project, options);
  cleanups.push(first.close);
  const node = startNode(first.url);
  await first.completed;
  expect(first.seen.complete, node.output()).toEqual({ ok: true });
  expect(JSON.parse(first.seen.manifest!)).toMatchObject({ version: 1, firstFrame: 0, fingerprints: expect.any(Array) });
  node.child.kill("SIGKILL");

  // Nothing changed: every segment is carried, and the completion says from which render.
  const second = await startStudio(project, options, undefined, "render", undefined, { from: "render 1", output: first.seen.output!, manifest: first.seen.manifest! });
  cleanups.push(second.close);
  const again = startNode(second.url);
  await second.completed;
  expect(second.seen.complete, again.output()).toEqual({ ok: true, carried: { from: "render 1", segments: 2, frames: 60, of: 2 } });
  expect(second.seen.lines).toContain("carrying from render render 1: its output and manifest downloaded");
  again.child.kill("SIGKILL");

  const third = await startStudio(project, options, undefined, "render", undefined, { from: "render 2", manifest: first.seen.manifest! });
  cleanups.push(third.close);
  const full = startNode(third.url);
  await third.completed;
  expect(third.seen.complete, full.output()).toEqual({ ok: true });
  expect(third.seen.lines.some((l) => l.startsWith("rendering in full: render render 2 could not be downloaded to carry from (GET /api/node/jobs/job%201/previous/output: the previous render is gone (HTTP 404"))).toBe(true);
});

it("a render the Worker splits at its plan downloads nothing of the previous render it was handed (its segments carry nothing)", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  const previous = { from: "render 1", output: Buffer.alloc(256 * 1024, 7), manifest: JSON.stringify({ version: 1, key: "k", firstFrame: 0, fingerprints: [] }) };
  const studio = await startStudio(project, { format: "mp4", quality: "draft" }, undefined, "render", undefined, previous, 2);
  cleanups.push(studio.close);
  const node = startNode(studio.url);
  await expect.poll(() => studio.seen.lines.some((l) => l.includes("the Worker split the render into 2 segments")), { timeout: 60_000 }).toBe(true);
  // The job ended with its plan, and the node read nothing of the previous render (it would have before the plan).
  expect(studio.seen.previousReads, node.output()).toEqual([]);
});

it("a render job kept whole applies the request's gifLoop (the render options reach the encoder whole)", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  const studio = await startStudio(project, { format: "gif", gifLoop: 3, fps: 5 });
  cleanups.push(studio.close);
  const node = startNode(studio.url);
  await studio.completed;
  expect(studio.seen.complete, node.output()).toEqual({ ok: true });
  const gif = studio.seen.output!;
  const at = gif.indexOf("NETSCAPE2.0");
  expect(at, "the GIF has a loop extension").toBeGreaterThan(0);
  // After the 11 bytes of the name: sub-block size 3, id 1, then the loop count (0 would be forever, the default).
  expect(gif.readUInt16LE(at + 13)).toBe(3);
});

it("aborts the render when a progress post answers cancelled", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg, { duration: 30 });
  const studio = await startStudio(project, { format: "mp4" }, (lines) => lines.some((l) => l.startsWith("frame ")));
  cleanups.push(studio.close);
  startNode(studio.url);
  await studio.completed;
  expect(studio.seen.complete).toEqual({ ok: false, error: "render cancelled" });
  expect(studio.seen.output).toBeNull();
});

it("a composition whose seek hangs fails once, naming the frame, within FRAME_TIMEOUT_MS from the environment", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg);
  // From 1 s on, every seek runs forever: frame 31 of 60 at 30 fps.
  const html = (await readFile(join(project, "index.html"), "utf8")).replace(
    "gsap.timeline({ paused: true });",
    "gsap.timeline({ paused: true, onUpdate() { if (this.time() >= 1) while (true) {} } });",
  );
  await writeFile(join(project, "index.html"), html);
  const studio = await startStudio(project, { format: "mp4", quality: "draft" });
  cleanups.push(studio.close);
  const node = startNode(studio.url, { FRAME_TIMEOUT_MS: "1500", NODE_CONCURRENCY: "1" });
  const began = Date.now();
  await studio.completed;
  const message = "frame 31 of 60 (at 1.000 s) did not finish seeking in 1.5 s";
  // On a loaded machine the bound runs at the browser's pace and the message ends saying how slow it was.
  const pace = / \(at this machine's pace: [\d.]+ s on the clock, its browser got \d+% of a core\)$/;
  const complete = studio.seen.complete as { ok: boolean; error?: string } | undefined;
  expect({ ...complete, error: complete?.error?.replace(pace, "") }, node.output()).toEqual({ ok: false, error: message });
  // The Worker logs the error once ("render failed: …"); the node's own lines neither repeat nor paraphrase it.
  expect(studio.seen.lines.filter((l) => l.includes("did not finish") || /timed? ?out|render failed/i.test(l))).toEqual([]);
  // Capture ran up to the frame that hung, and no further.
  const frames = studio.seen.lines.map((l) => /^frame (\d+)\/60/.exec(l)?.[1]).filter(Boolean).map(Number);
  expect(frames.length).toBeGreaterThan(0);
  expect(Math.max(...frames)).toBeLessThanOrEqual(30);
  expect(Date.now() - began).toBeLessThan(30_000);
});
