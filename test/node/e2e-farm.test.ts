// The render farm end to end: the real Worker (wrangler dev) with three real render nodes on this machine. A render
// long enough to split goes out as segments to the three nodes; one node is killed (SIGKILL) mid-render; its segment
// is given to another node, the render ends done, and the joined file equals a one-node render of the same project
// (frame count, duration, frames within MAD 1 per channel at and around every segment edge, audio present).
// The split is the farm model's (worker/renders/split-plan.ts): the 10 s render (shorter than the old fixed 20 s
// threshold) goes to the three idle nodes in 3 segments; with one node left, the same render stays whole. The model
// is told this machine's nodes (NODE_FRAMES_PER_SECOND 2: one browser per node on the shared 2-core machine renders
// about 2 frames/s at 1080p, measured for split-plan.ts), as an operator tells it theirs.
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderProject } from "../../render-node/src/render-project.ts";
import { resolveBinaries, type Binaries } from "../../render-node/src/system/resolve-binaries.ts";
import { runTool } from "../../render-node/src/system/run-tool.ts";
import { isAlive, listDescendants, probeStreams } from "../../render-node/test/inspect-video.ts";
import { makeTestProject } from "../../render-node/test/make-test-project.ts";
import { startRenderNode, startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { preparedDataDir } from "../studio-data.ts";
import { callStudio, waitFor } from "./studio-calls.ts";

let studio: RunningStudio;
let binaries: Binaries;
let token = "";
let work = "";
let project = "";
const nodes = new Map<string, ChildProcess>();

function call(method: string, path: string, body?: unknown) {
  return callStudio(studio.url, token, method, path, body);
}

type Segment = { index: number; fromFrame: number; toFrame: number; node: string | null; attempts: number; status: string };
type Render = { status: string; downloadUrl: string | null; lines: string[]; lastLine: string; segments: Segment[] | null };
const renderOf = async (slug: string) => (await (await call("GET", `/api/projects/${slug}/render`)).json()) as Render;

async function frameRgb(file: string, index: number): Promise<Buffer> {
  const raw = `${file}.${index}.rgb`;
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-i", file, "-vf", `select=eq(n\\,${index})`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw], new AbortController().signal).done;
  return readFile(raw);
}

function maxChannelMad(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  const sums = [0, 0, 0];
  for (let i = 0; i < a.length; i++) sums[i % 3]! += Math.abs(a[i]! - b[i]!);
  return Math.max(...sums.map((s) => s / (a.length / 3)));
}

async function formatDuration(file: string): Promise<number> {
  const text = await runTool(binaries.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file], new AbortController().signal).done;
  return Number(text.trim());
}

beforeAll(async () => {
  binaries = await resolveBinaries();
  work = await mkdtemp(join(tmpdir(), "studio-farm-"));
  // 10 s at 30 fps = 300 frames; the sub-composition from 1 s, the tone from 0.5 s.
  project = await makeTestProject(binaries.ffmpeg, { duration: 10, subStart: 1 });
  studio = await startStudio({
    port: 20_000 + Math.floor(Math.random() * 2000),
    dataDir: await preparedDataDir(join(work, "data")), prepared: true,
    renderNode: false,
    vars: { JOB_LEASE_MS: "4000", NODE_FRAMES_PER_SECOND: "2" },
  });
  for (const id of ["n1", "n2", "n3"]) nodes.set(`local/${id}`, startRenderNode(studio.url, studio.nodeKey, { NODE_ID: id, NODE_CONCURRENCY: "1" }));
  const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "farm" }) });
  token = ((await login.json()) as { token: string }).token;
  expect((await call("POST", "/api/projects", { name: "Farm", html: await readFile(join(project, "index.html"), "utf8") })).status).toBe(201);
  for (const path of ["compositions/sub.html", "assets/tone.wav"]) {
    expect((await call("PUT", `/api/projects/farm/files/${path}`, new Uint8Array(await readFile(join(project, path))))).status).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  for (const node of nodes.values()) if (node.exitCode === null && node.signalCode === null) node.kill("SIGKILL");
  await studio?.stop();
});

describe("three nodes", () => {
  it("split across three nodes with one killed (kill -9) mid-render: done, and the same file as a one-node render", async () => {
    const reference = join(work, "reference.mp4");
    await renderProject({ projectDir: project, outputPath: reference, composition: "index.html", quality: "draft", format: "mp4", binaries, signal: new AbortController().signal });

    expect((await call("POST", "/api/projects/farm/render", { format: "mp4", quality: "draft" })).status).toBe(202);
    // Kill a node once it is capturing a segment (its progress shows in the summed render progress).
    const victim = await waitFor("a segment in capture", async () => {
      const r = await renderOf("farm");
      const busy = r.segments?.find((s) => s.status === "rendering" && s.node && r.lines.some((l) => l.startsWith(`segment ${s.index}: frame `)));
      return busy ? { segment: busy.index, node: busy.node! } : null;
    }, 120_000);
    const proc = nodes.get(victim.node)!;
    const children = listDescendants(proc.pid!);
    process.kill(proc.pid!, "SIGKILL");
    await waitFor("the killed node's children to exit", async () => children.every((pid) => !isAlive(pid)), 10_000);

    const done = await waitFor("the render to end", async () => {
      const r = await renderOf("farm");
      return r.status === "done" || r.status === "failed" ? r : null;
    }, 240_000);
    expect(done.status, done.lines.join("\n")).toBe("done");
    expect(done.segments?.map((s) => [s.fromFrame, s.toFrame, s.status])).toEqual([[0, 100, "done"], [100, 200, "done"], [200, 300, "done"]]);
    // The join makes the poster at the moment the first node's plan settled (no data-poster-time: 3 s of the 10 s),
    // the frame a one-node render would show: a plan that lost its moment on the way through the Worker would say
    // "the plan names none" here.
    expect(done.lines.filter((l) => /poster: frame /.test(l)), done.lines.join("\n")).toEqual([expect.stringMatching(/poster: frame 90 \(3 s, the default moment\), \d+ bytes$/)]);
    expect(done.lines.some((l) => l.startsWith("render split into 3 segments of about 100 frames (300 frames at 30 fps) for 3 free nodes (this one and 2 waiting for work)")), done.lines.join("\n")).toBe(true);
    expect(done.lines).toContain(
      `segment ${victim.segment}: node ${victim.node} stopped renewing its lease (no progress for 4 s; attempt 1 of 3); queued again for another node`,
    );
    const retried = done.segments!.find((s) => s.index === victim.segment)!;
    expect(retried.attempts).toBe(2);
    expect(retried.node).not.toBe(victim.node);
    expect(new Set(done.segments!.map((s) => s.node)).size).toBeGreaterThanOrEqual(2);

    const file = join(work, "farm.mp4");
    await writeFile(file, new Uint8Array(await (await call("GET", done.downloadUrl!)).arrayBuffer()));
    const [joined, whole] = [await probeStreams(binaries.ffprobe, file), await probeStreams(binaries.ffprobe, reference)];
    const frames = (s: typeof joined) => Number(s.find((x) => x.codec_type === "video")?.nb_read_frames);
    expect(frames(joined)).toBe(300);
    expect(frames(joined)).toBe(frames(whole));
    expect(joined.find((x) => x.codec_type === "audio")?.codec_name).toBe("aac");
    expect(Math.abs((await formatDuration(file)) - (await formatDuration(reference)))).toBeLessThan(0.05);
    for (const index of [0, 45, 99, 100, 101, 199, 200, 250, 299]) {
      expect(maxChannelMad(await frameRgb(file, index), await frameRgb(reference, index)), `frame ${index}`).toBeLessThan(1);
    }
  }, 420_000);

  // One retry: on the loaded CI machine this test has twice failed to see a segment's browsers while its render
  // ran (never reproduced alone or beside other e2e files); the failure message carries the render state it saw.
  it("cancel reaches every node that holds a segment: their browsers and ffmpegs exit within seconds", { retry: 1, timeout: 240_000 }, async () => {
    // A retry starts clean: whatever render the failed attempt left is cancelled first.
    await call("DELETE", "/api/projects/farm/render");
    // force: the same files and options as the first test's render, which the render cache would answer with a copy.
    expect((await call("POST", "/api/projects/farm/render", { format: "mp4", quality: "draft", force: true })).status).toBe(202);
    // A segment in capture with its node's browsers seen running (a segment whose capture just ended may still show
    // "rendering" until its node completes it, with its browsers already closed: wait past that). Then every live
    // node's browsers and ffmpegs at the moment of the cancel are watched: whichever holds a segment must stop.
    let seen = "";
    await waitFor("a segment in capture, with its browsers", async () => {
      const r = await renderOf("farm");
      const busy = r.segments?.filter((s) => s.status === "rendering" && s.node && r.lines.some((l) => l.startsWith(`segment ${s.index}: frame `))) ?? [];
      const counts = busy.map((s) => ({ segment: s.index, node: s.node, processes: listDescendants(nodes.get(s.node!)?.pid ?? -1).length }));
      seen = JSON.stringify({ status: r.status, segments: r.segments, counts, nodes: [...nodes.keys()] });
      return counts.some((c) => c.processes > 0);
    }, 120_000).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; last seen: ${seen}`);
    });
    const live = [...nodes.values()].filter((n) => n.exitCode === null && n.signalCode === null);
    const children = live.flatMap((n) => listDescendants(n.pid!));
    expect(children.length).toBeGreaterThan(0);
    const cancelledAt = Date.now();
    expect(await (await call("DELETE", "/api/projects/farm/render")).json()).toEqual({ stopped: true });
    await waitFor("the segment holders' children to exit", async () => children.every((pid) => !isAlive(pid)), 10_000);
    const took = Date.now() - cancelledAt;
    console.log(`cancel → every segment holder's browsers and ffmpegs gone: ${took} ms`);
    expect(took).toBeLessThan(5000);
    expect((await renderOf("farm")).status).toBe("cancelled");
  });

  it("with one node left the same render is not split: one node renders it whole, and the file is the one-node render's", async () => {
    // Leave one node: stop the others (as an operator stops machines), and queue the render at once. Their last
    // claims may still wait in local workerd, which does not always see a killed client go: the render's arrival
    // wakes them with "claim again" (never a job), which takes them off the board, so by the time the survivor plans
    // the render they are neither holding it nor counted as free.
    const live = [...nodes.entries()].filter(([, n]) => n.exitCode === null && n.signalCode === null);
    expect(live.length).toBeGreaterThanOrEqual(2);
    for (const [, proc] of live.slice(1)) proc.kill("SIGKILL");
    const [survivor] = live[0]!;

    expect((await call("POST", "/api/projects/farm/render", { format: "mp4", quality: "draft", force: true })).status).toBe(202);
    const done = await waitFor("the render to end", async () => {
      const r = await renderOf("farm");
      return r.status === "done" || r.status === "failed" ? r : null;
    }, 240_000);
    expect(done.status, done.lines.join("\n")).toBe("done");
    expect(done.segments).toBeNull();
    expect(done.lines.some((l) => l.startsWith("kept whole on this node: 1 free node (this one; no other waiting for work)")), done.lines.join("\n")).toBe(true);
    expect(done.lines.some((l) => l.includes(survivor)), `rendered by ${survivor}`).toBe(true);

    const file = join(work, "farm-one-node.mp4");
    await writeFile(file, new Uint8Array(await (await call("GET", done.downloadUrl!)).arrayBuffer()));
    const reference = join(work, "reference.mp4");
    const streams = await probeStreams(binaries.ffprobe, file);
    expect(Number(streams.find((x) => x.codec_type === "video")?.nb_read_frames)).toBe(300);
    expect(Math.abs((await formatDuration(file)) - (await formatDuration(reference)))).toBeLessThan(0.05);
  }, 300_000);
});
