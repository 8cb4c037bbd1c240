// End to end: the real Worker (wrangler dev: workerd, local D1/R2/Durable Objects) and a real render node process
// with Chromium and ffmpeg, driven over HTTP like an agent would.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveFfmpeg } from "../../render-node/src/system/resolve-binaries.ts";
import { CANVAS, indexHtml, SUB_HTML } from "../../render-node/test/make-test-project.ts";
import { isAlive, listDescendants, probeStreams, readPixel } from "../../render-node/test/inspect-video.ts";
import { runTool } from "../../render-node/src/system/run-tool.ts";
import { startRenderNode, startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { preparedDataDir } from "../studio-data.ts";
import type { ChildProcess } from "node:child_process";
import { callStudio, waitFor } from "./studio-calls.ts";
import { jobRowCount } from "./studio-d1.ts";
import { settled } from "../../core/settled.ts";

let studio: RunningStudio;
/** The node the last tests use, once the first one has been stopped. */
let node: ChildProcess | null = null;
let token = "";
let work = "";
const { ffmpeg, ffprobe } = resolveFfmpeg();

function call(method: string, path: string, body?: unknown) {
  return callStudio(studio.url, token, method, path, body);
}

type Render = { id: string; status: string; filename: string; downloadUrl: string | null; lines: string[]; lastLine: string };

/** The carry test's page: a box moving in every frame, and a title shown from 2.5 s (the second fixed segment). */
function carryPage(title: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script><style>
html, body { margin: 0; width: 160px; height: 90px; overflow: hidden; background: #000; }
[data-composition-id="main"] { position: relative; width: 160px; height: 90px; background: #203040; }
#box { position: absolute; left: 0; top: 10px; width: 20px; height: 20px; background: #f0c040; }
#title { position: absolute; left: 10px; top: 50px; font: 16px sans-serif; color: #80f0a0; }
</style></head><body>
<div data-composition-id="main" data-start="0" data-duration="4" data-width="160" data-height="90">
<div id="box"></div><div id="title" data-start="2.5" data-duration="1.5">${title}</div>
</div>
<script>
window.__timelines = window.__timelines || {};
const tl = gsap.timeline({ paused: true });
tl.fromTo("#box", { x: 0 }, { x: 130, duration: 4, ease: "none" }, 0);
window.__timelines["main"] = tl;
</script></body></html>`;
}

/** Every decoded video frame's MD5, in order. */
async function decodedFrames(file: string): Promise<string[]> {
  const text = await runTool(ffmpeg, ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"], new AbortController().signal).done;
  return text.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split(",").at(-1)!.trim());
}

async function renderAndDownload(slug: string, options: Record<string, unknown>): Promise<{ render: Render; file: string }> {
  const res = await call("POST", `/api/projects/${slug}/render?wait=1`, options);
  const render = (await res.json()) as Render;
  expect(render.status, render.lines?.join("\n")).toBe("done");
  const video = await call("GET", render.downloadUrl!);
  expect(video.status).toBe(200);
  const file = join(work, render.filename);
  await writeFile(file, new Uint8Array(await video.arrayBuffer()));
  return { render, file };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "studio-e2e-"));
  studio = await startStudio({
    port: 18_000 + Math.floor(Math.random() * 2000),
    dataDir: await preparedDataDir(join(work, "data")), prepared: true,
    vars: { JOB_LEASE_MS: "4000" },
  });
  const login = await fetch(`${studio.url}/auth/dev/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "e2e" }),
  });
  token = ((await login.json()) as { token: string }).token;
  // The project goes in through the API, as an agent would write it.
  expect((await call("POST", "/api/projects", { name: "E2E", html: indexHtml(2, 1) })).status).toBe(201);
  expect((await call("PUT", "/api/projects/e2e/files/compositions/sub.html", SUB_HTML)).status).toBe(200);
  const tone = join(work, "tone.wav");
  await runTool(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=48000", tone], new AbortController().signal).done;
  expect((await call("PUT", "/api/projects/e2e/files/assets/tone.wav", new Uint8Array(await readFile(tone)))).status).toBe(200);
  expect((await call("POST", "/api/projects", { name: "Long", html: indexHtml(20, 1) })).status).toBe(201);
  await call("PUT", "/api/projects/long/files/compositions/sub.html", SUB_HTML);
}, 120_000);

afterAll(async () => {
  if (node && node.exitCode === null) node.kill("SIGKILL");
  await studio?.stop();
});

describe("rendering through the studio", () => {
  const expected = {
    mp4: { video: "h264", audio: "aac" },
    webm: { video: "vp9", audio: "opus" },
    mov: { video: "prores", audio: "pcm_s16le" },
    gif: { video: "gif", audio: null },
  } as const;

  for (const format of ["mp4", "webm", "mov", "gif"] as const) {
    it(`renders ${format}: codecs, size, exact frame count, audio, and pixels where GSAP puts them`, async () => {
      const { render, file } = await renderAndDownload("e2e", { format, quality: "draft" });
      expect(render.filename).toMatch(new RegExp(`^e2e_\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2}\\.${format}$`));
      // A GIF defaults to 15 fps (the others to 30): 2 s is 30 frames, not 60.
      const frames = format === "gif" ? 30 : 60;
      expect(render.lines.some((l) => l.match(/^frame \d+\/(\d+)/)?.[1] === String(frames))).toBe(true);
      const streams = await probeStreams(ffprobe, file);
      const video = streams.find((s) => s.codec_type === "video");
      expect(video?.codec_name).toBe(expected[format].video);
      expect([video?.width, video?.height]).toEqual([CANVAS.width, CANVAS.height]);
      expect(Number(video?.nb_read_frames)).toBe(frames);
      const audio = streams.find((s) => s.codec_type === "audio");
      expect(audio?.codec_name ?? null).toBe(expected[format].audio);
      if (format === "gif") return; // palette colours are approximate; the other formats check pixels
      // Frame 30 (t = 1.0 s): the red box has moved to x = 100; the sub-composition (from 1 s) shows its dot at x = 0.
      const red = await readPixel(ffmpeg, file, CANVAS.width, 30, 120, 40);
      expect(red[0]).toBeGreaterThan(180);
      expect(red[1]).toBeLessThan(80);
      // Frame 45 (t = 1.5 s): the dot is halfway through its own 1 s timeline, x = 100, inside the host at top 100.
      const green = await readPixel(ffmpeg, file, CANVAS.width, 45, 120, 140);
      expect(green[1]).toBeGreaterThan(180);
      expect(green[0]).toBeLessThan(80);
      // Frame 15 (t = 0.5 s): before the sub-composition starts, nothing is drawn there.
      const before = await readPixel(ffmpeg, file, CANVAS.width, 15, 20, 140);
      expect(Math.max(...before)).toBeLessThan(40);
    });
  }

  it("passes a rational fps through exactly: 30000/1001 gives round(2 × 29.97) = 60 frames", async () => {
    const { file } = await renderAndDownload("e2e", { format: "mp4", quality: "draft", fps: "30000/1001" });
    const video = (await probeStreams(ffprobe, file)).find((s) => s.codec_type === "video");
    expect(video?.r_frame_rate).toBe("30000/1001");
    expect(Number(video?.nb_read_frames)).toBe(60);
  });

  it("renders the same inputs once: the same render again is done in under a second, no job claimed, the same bytes", async () => {
    // The first test rendered e2e as mp4 draft; nothing of the project changed since.
    const jobs = () => jobRowCount(join(work, "data"));
    const before = jobs();
    const started = performance.now();
    const res = await call("POST", "/api/projects/e2e/render", { format: "mp4", quality: "draft" });
    const elapsed = performance.now() - started;
    const reused = (await res.json()) as Render & { id: string; reusedFrom?: string };
    expect(res.status, JSON.stringify(reused)).toBe(200);
    expect(reused).toMatchObject({ status: "done", reusedFrom: expect.any(String) });
    expect(elapsed).toBeLessThan(1000);
    expect(jobs()).toBe(before);
    const original = (await (await call("GET", `/api/renders/${reused.reusedFrom}`)).json()) as Render;
    expect(original).toMatchObject({ status: "done", format: "mp4", quality: "draft" });
    expect(original.filename).not.toBe(reused.filename);
    const bytes = async (url: string) => new Uint8Array(await (await call("GET", url)).arrayBuffer());
    const copy = await bytes(reused.downloadUrl!);
    expect(copy.byteLength).toBeGreaterThan(1000);
    expect(copy).toEqual(await bytes(original.downloadUrl!));
  });

  it("lists the renders newest first and serves Range requests on them", async () => {
    const list = (await (await call("GET", "/api/renders")).json()) as { renders: { filename: string; size: number }[] };
    expect(list.renders.length).toBeGreaterThanOrEqual(5);
    const newest = list.renders[0]!;
    const part = await call("GET", `/renders/${newest.filename}`, undefined);
    expect(part.headers.get("Accept-Ranges")).toBe("bytes");
    const ranged = await fetch(`${studio.url}/renders/${newest.filename}`, { headers: { Authorization: `Bearer ${token}`, Range: "bytes=0-99" } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
  });

  it("a running render can be watched: its live playlist lists the first segment before the render is done, and the piece decodes", async () => {
    const start = (await (await call("POST", "/api/projects/long/render", { format: "mp4", quality: "draft" })).json()) as Render & { id: string; liveUrl?: string };
    expect(start.liveUrl).toBe(`/api/renders/${start.id}/live.m3u8`);
    let playlist = "";
    await waitFor("the first segment in the live playlist", async () => {
      const res = await call("GET", start.liveUrl!);
      playlist = res.status === 200 ? await res.text() : "";
      return playlist.includes("live/0.mp4");
    }, 60_000);
    // 20 s at 30 fps: twenty fixed segments of 1 s; the render is still running, so no ENDLIST yet.
    expect(((await (await call("GET", "/api/projects/long/render")).json()) as Render).status).toBe("rendering");
    expect(playlist).toContain("#EXT-X-PLAYLIST-TYPE:EVENT");
    expect(playlist).toContain("#EXTINF:1.000000,");
    expect(playlist).not.toContain("#EXT-X-ENDLIST");
    const piece = await call("GET", `/api/renders/${start.id}/live/0.mp4`);
    expect(piece.status).toBe(200);
    const file = join(work, "live-0.mp4");
    await writeFile(file, new Uint8Array(await piece.arrayBuffer()));
    const video = (await probeStreams(ffprobe, file)).find((stream) => stream.codec_type === "video");
    expect(video).toMatchObject({ codec_name: "h264", width: CANVAS.width, height: CANVAS.height, nb_read_frames: "30" });
    expect(await (await call("DELETE", "/api/projects/long/render")).json()).toEqual({ stopped: true });
    // Ended (cancelled): a player still polling gets the pieces so far, ended, for a minute (then a 404).
    const ended = await call("GET", start.liveUrl!);
    expect(ended.status).toBe(200);
    expect(await ended.text()).toMatch(/live\/0\.mp4\n(.*\n)*#EXT-X-ENDLIST\n$/);
  });

  it("a re-render after an edit of the end title carries the unchanged first segments from the previous render, and equals a full render of the edited files", async () => {
    // 4 s at 10 fps: four fixed segments of 1 s; the title shows from 2.5 s (in the last two), the box moves in every frame.
    expect((await call("POST", "/api/projects", { name: "Carry", html: carryPage("First title") })).status).toBe(201);
    const options = { format: "mp4", quality: "draft", fps: 10 };
    const first = await renderAndDownload("carry", options);
    expect((await call("PUT", "/api/projects/carry/files/index.html", carryPage("Second title"))).status).toBe(200);
    const again = await renderAndDownload("carry", options);
    const id = (r: Render) => r.id;
    const state = (await (await call("GET", `/api/renders/${id(again.render)}`)).json()) as { carriedFrom?: string; carriedSegments?: number; carriedFrames?: number };
    expect(state, again.render.lines.join("\n")).toMatchObject({ carriedFrom: id(first.render), carriedSegments: 2, carriedFrames: 20 });
    expect(again.render.lines).toContain(`carried 2 of 4 segments from render ${id(first.render)} (20 frames neither captured nor encoded)`);
    const listed = (await (await call("GET", "/api/renders")).json()) as { renders: { id: string; carriedFrom?: string; carriedSegments?: number }[] };
    expect(listed.renders.find((r) => r.id === id(again.render))).toMatchObject({ carriedFrom: id(first.render), carriedSegments: 2 });
    // The full render: the same edited page under a file no render of this project has used, so nothing is carried.
    expect((await call("PUT", "/api/projects/carry/files/full.html", carryPage("Second title"))).status).toBe(200);
    const full = await renderAndDownload("carry", { ...options, composition: "full.html" });
    expect((full.render as Render & { carriedFrom?: string }).carriedFrom).toBeUndefined();
    const [carried, whole] = await Promise.all([decodedFrames(again.file), decodedFrames(full.file)]);
    expect(carried.length).toBe(40);
    const firstDifference = carried.findIndex((md5, i) => md5 !== whole[i]);
    expect(firstDifference, `frame ${firstDifference} differs from a full render`).toBe(-1);
  });

  it("cancel stops the render and leaves no browser or ffmpeg behind", async () => {
    const start = await call("POST", "/api/projects/long/render", { format: "mp4", quality: "draft" });
    expect(start.status).toBe(202);
    await waitFor("capture to begin", async () => {
      const r = (await (await call("GET", "/api/projects/long/render")).json()) as Render;
      return r.lines.some((l) => /^frame \d+\/600/.test(l));
    });
    const nodePid = studio.node!.pid!;
    expect(listDescendants(nodePid).length).toBeGreaterThan(0);
    expect(await (await call("DELETE", "/api/projects/long/render")).json()).toEqual({ stopped: true });
    expect(((await (await call("GET", "/api/projects/long/render")).json()) as Render).status).toBe("cancelled");
    await waitFor("the node's children to exit", async () => listDescendants(nodePid).length === 0, 15_000);
  });

  it("a node told to stop (SIGTERM) gives its render back: not failed, queued again at once (not a lease later); no browser or ffmpeg left behind", async () => {
    await call("POST", "/api/projects/long/render", { format: "mp4", quality: "draft" });
    await waitFor("capture to begin", async () => {
      const r = (await (await call("GET", "/api/projects/long/render")).json()) as Render;
      return r.status === "rendering" && r.lines.some((l) => /^frame \d+\/600/.test(l));
    });
    const first = studio.node!;
    const children = listDescendants(first.pid!);
    expect(children.length).toBeGreaterThan(0);
    first.kill("SIGTERM");
    await waitFor("the node to exit", async () => first.exitCode !== null || first.signalCode !== null, 10_000);
    await waitFor("its children to exit", async () => children.every((pid) => !isAlive(pid)), 10_000);
    // A stopped node is not the render's failure: it gives the job back as it stops (POST .../release), so the render
    // is queued again for another node at once, its lease (JOB_LEASE_MS 4 s) never lapsing.
    const requeued = await waitFor("the render to be queued again", async () => {
      const r = (await (await call("GET", "/api/projects/long/render")).json()) as Render;
      return r.lines.some((l) => /^render: node .+ gave it back \(the node is stopping; attempt 1 of 3\); queued again for another node$/.test(l)) ? r : null;
    }, 30_000);
    expect(requeued.status).toBe("queued");
    expect(requeued.lines.some((l) => /stopped renewing its lease/.test(l))).toBe(false);
    expect(requeued.lines.some((l) => /render failed/.test(l))).toBe(false);
    // The project is left free for the next test.
    expect(await (await call("DELETE", "/api/projects/long/render")).json()).toEqual({ stopped: true });
    node = startRenderNode(studio.url, studio.nodeKey);
  });

  it("a node killed (kill -9) mid-render takes its browsers and ffmpegs with it; another node takes the render over and finishes it", async () => {
    // A second node waits for work; the first is killed once capture has begun. Its lease lapses (JOB_LEASE_MS 4 s),
    // the room puts the job back (attempt 1 of 3, naming the node) and the second node renders it whole.
    // 10 s (300 frames), so the kill lands mid-capture: a 4 s draft of this canvas could be captured and joined
    // between two polls of the render's state.
    // The reference is a project of the very same files, "undisturbed", rendered whole by the second node while the
    // lease lapses (nothing renders then): a render of "retried" itself before would be answered from the render
    // cache, or carried from segment by segment, capturing nothing to be killed in.
    for (const name of ["Retried", "Undisturbed"]) {
      expect((await call("POST", "/api/projects", { name, html: indexHtml(10, 1) })).status).toBe(201);
      await call("PUT", `/api/projects/${name.toLowerCase()}/files/compositions/sub.html`, SUB_HTML);
    }
    await call("POST", "/api/projects/retried/render", { format: "mp4", quality: "draft" });
    const victim = node!;
    const nodePid = victim.pid!;
    // Capture has begun and the node's browsers and ffmpegs are running, read in one poll.
    const children = await waitFor("capture to begin", async () => {
      const r = (await (await call("GET", "/api/projects/retried/render")).json()) as Render;
      if (!(r.status === "rendering" && r.lines.some((l) => /^frame \d+\/300/.test(l)))) return null;
      const running = listDescendants(nodePid);
      return running.length > 2 ? running : null;
    });
    const survivor = startRenderNode(studio.url, studio.nodeKey, { NODE_ID: "survivor" });
    process.kill(nodePid, "SIGKILL");
    const undisturbed = renderAndDownload("undisturbed", { format: "mp4", quality: "draft" });
    // Awaited below; a failure before then is not an unhandled rejection.
    void settled(undisturbed);
    // Nothing cleans up after a SIGKILL inside the node: the kernel's death signal (setpriv) ends Chromium and
    // ffmpeg, and Chromium's own processes follow their browser.
    await waitFor("the killed node's children to exit", async () => children.every((pid) => !isAlive(pid)), 5000);
    const done = await waitFor("the render to end", async () => {
      const r = (await (await call("GET", "/api/projects/retried/render")).json()) as Render;
      return r.status === "done" || r.status === "failed" ? r : null;
    }, 90_000);
    expect(done.status, done.lines.join("\n")).toBe("done");
    expect(done.lines.some((l) => /^render: node .+ stopped renewing its lease \(no progress for 4 s; attempt 1 of 3\); queued again for another node$/.test(l))).toBe(true);
    expect(done.lines).toContain("render node local/survivor took the render over (attempt 2 of 3)");
    const { file: reference } = await undisturbed;
    // The file is the one a single uninterrupted node makes: same frame count, same pixels where sampled.
    const video = await call("GET", done.downloadUrl!);
    const file = join(work, "retried.mp4");
    await writeFile(file, new Uint8Array(await video.arrayBuffer()));
    const frames = async (f: string) => Number((await probeStreams(ffprobe, f)).find((s) => s.codec_type === "video")?.nb_read_frames);
    expect(await frames(file)).toBe(await frames(reference));
    for (const [frame, x, y] of [[30, 120, 40], [45, 120, 140], [100, 20, 140]] as const) {
      const a = await readPixel(ffmpeg, file, CANVAS.width, frame, x, y);
      const b = await readPixel(ffmpeg, reference, CANVAS.width, frame, x, y);
      for (let ch = 0; ch < 3; ch++) expect(Math.abs(a[ch]! - b[ch]!)).toBeLessThanOrEqual(2);
    }
    node = survivor;
  });

  it("a composition whose seek hangs fails once, naming the frame, within FRAME_TIMEOUT_MS", async () => {
    node?.kill("SIGKILL");
    node = startRenderNode(studio.url, studio.nodeKey, { FRAME_TIMEOUT_MS: "3000" });
    const hanging = indexHtml(2, 1).replace(
      "gsap.timeline({ paused: true });",
      "gsap.timeline({ paused: true, onUpdate() { if (this.time() >= 1) while (true) {} } });",
    );
    expect((await call("POST", "/api/projects", { name: "Hang", html: hanging })).status).toBe(201);
    await call("PUT", "/api/projects/hang/files/compositions/sub.html", SUB_HTML);
    const nodePid = node.pid!;
    const res = await call("POST", "/api/projects/hang/render?wait=1", { format: "mp4", quality: "draft" });
    const render = (await res.json()) as Render;
    expect(render.status, render.lines.join("\n")).toBe("failed");
    const message = /^render failed: frame (\d+) of 60 \(at \d\.\d{3} s\) did not finish seeking in 3 s( \(at this machine's pace: [\d.]+ s on the clock, its browser got \d+% of a core\))?$/;
    expect(render.lastLine).toMatch(message);
    // Which browser reaches the hang first depends on the split, but it is at 1 s or later (frame 31 on).
    expect(Number(message.exec(render.lastLine)![1])).toBeGreaterThanOrEqual(31);
    // Said once in the whole log, and no raw puppeteer timeout anywhere.
    expect(render.lines.filter((l) => l.includes("did not finish seeking"))).toEqual([render.lastLine]);
    expect(render.lines.join("\n")).not.toMatch(/Navigation timeout|Runtime\.callFunctionOn|timed out/);
    await waitFor("the render's browsers and ffmpegs to exit", async () => listDescendants(nodePid).length === 0, 5000);
  });
});
