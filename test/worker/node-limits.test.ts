// What a node key's reports may claim, bounded by what the studio makes, not by what the node says. A live piece's
// number and the render's piece count are at most the fixed segments of the longest video one render may make
// (MAX_VIDEO_SECONDS, an hour here): past that a node could store a million uncounted pieces that every read of the
// live playlist lists. A snapshot job's report names at most the frames a snapshot may ask for: each named frame
// costs every read of the snapshot an R2 look. A claim naming its kinds over and over claims those kinds.
import { describe, expect, it } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { awaitJob, claim, nodeCall, registerNode } from "./node-helpers.ts";
import { splitRender, startRender } from "./render-farm-helpers.ts";
import { MAX_SNAPSHOT_FRAMES } from "../../core/browser/browser-options.ts";

const piece = (key: string, jobId: string, n: number, count: number) =>
  nodeCall(key, "PUT", `/jobs/${jobId}/live/${n}?seconds=1.000000&initBytes=20&mediaEnd=100&count=${count}`, new Uint8Array(100).fill(n % 256));

describe("a live piece", () => {
  it("is refused past the pieces of the longest video a render may make: 400, before anything is stored", { timeout: 30_000 }, async () => {
    const node = await registerNode("limits-live-node");
    const { s, state } = await startRender("limits-live", "limits-live");
    while ((await claim(node))?.id !== state.id);
    // An hour of video at a rate just under 1.5 fps is 5400 one-frame pieces, and a range render's cut ends one more.
    expect((await piece(node, state.id, 5400, 5401)).status).toBe(200);
    const refused = await piece(node, state.id, 999_998, 999_999);
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({
      error: "a render has at most 5401 live pieces (3600 s of video, MAX_VIDEO_SECONDS); 999999 is not its count",
      code: "bad_request",
    });
    const listed = await api(s.token, "GET", `/api/renders/${state.id}/live.m3u8`);
    expect(await listed.text()).not.toContain("999998");
  });
});

describe("a snapshot job's report", () => {
  it("names at most the frames a snapshot asks for: a report naming more is read as a failure, not looked up frame by frame", { timeout: 30_000 }, async () => {
    const s = await signIn("limits-snapshot");
    const { slug } = await createProject(s.token, "limits-snapshot");
    const node = await registerNode("limits-snapshot-node");
    expect((await api(s.token, "POST", `/api/projects/${slug}/snapshot`, { frames: 1, wait: false })).status).toBe(202);
    const job = await awaitJob(node, "snapshot");
    const snapshots = Array.from({ length: MAX_SNAPSHOT_FRAMES + 1 }, (_, i) => ({ path: `snapshots/frame-${i}.png` }));
    expect((await nodeCall(node, "POST", `/jobs/${job.id}/complete`, { ok: true, result: { snapshots, log: [] } })).status).toBe(200);
    const read = await api(s.token, "GET", `/api/projects/${slug}/snapshot/${job.id}`);
    expect(read.status).toBe(502);
    expect(await json(read)).toMatchObject({ error: `snapshot failed: the render node reported a result the studio cannot read (at most ${MAX_SNAPSHOT_FRAMES} frames)` });
  });
});

describe("a claim", () => {
  it("naming its kinds many times over is the claim of those kinds, not a server error", { timeout: 30_000 }, async () => {
    const node = await registerNode("limits-claim-node");
    const { state } = await startRender("limits-claim", "limits-claim");
    const kinds = Array.from({ length: 500 }, (_, i) => (i % 2 ? "render" : "segment"));
    let claimed: string | null = null;
    for (let tries = 0; tries < 50 && claimed !== state.id; tries++) {
      const res = await nodeCall(node, "POST", "/jobs/claim?wait=0", { kinds });
      expect(res.status, await res.clone().text()).toBe(200);
      claimed = ((await res.json()) as { job: { id: string } | null }).job?.id ?? null;
    }
    expect(claimed).toBe(state.id);
  });
});

describe("a segment's progress", () => {
  it("counts at most the segment's own frames toward the render: one segment never shows the render done", { timeout: 30_000 }, async () => {
    const { s, b, segment } = await splitRender("limits-seg");
    const size = (segment.options.toFrame as number) - (segment.options.fromFrame as number);
    // The segment's node says it did every frame of the render (and reused them all).
    const said = { frame: 900, total: 900, fps: 10, stage: "capturing", etaSeconds: 0, reused: 900 };
    expect(await json(await nodeCall(b, "POST", `/jobs/${segment.id}/progress`, { lines: [], progress: said }))).toEqual({ cancelled: false });
    const { progress } = await json<{ progress: { frame: number; total: number; percent: number; reused?: number } }>(await api(s.token, "GET", "/api/projects/limits-seg/render"));
    expect(progress).toMatchObject({ frame: size, total: 900, reused: size });
    expect(progress.percent).toBeLessThan(100);
    expect((await api(s.token, "DELETE", "/api/projects/limits-seg/render")).status).toBe(200);
  });
});
