// Watching a render while it runs: the node uploads each finished segment as a live piece, the Worker's playlist
// lists the contiguous prefix of them (EVENT), ENDLIST once the node's announced count is there, the render's
// liveUrl names it, another user gets 404. After the render's end a player still polling gets the playlist with
// ENDLIST and its pieces, never a 404, for a minute; then the room's alarm removes every object under the render's
// prefix, a piece stored in the instant of its end included (the file is the video then). An upload reads D1 once:
// whether the render still wants the piece it stored is the room's to say, not a second D1 read.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, nodeCall, registerNode } from "./node-helpers.ts";
import { callTool, textOf } from "./mcp-helpers.ts";
import { finishWithFile, startRender } from "./render-farm-helpers.ts";
import { bearer, send } from "./traced-worker.ts";

/** Runs the room's alarm as it runs a minute after now (the grace of an ended render's live pieces, live-sweeps.ts). */
async function alarmAMinuteLater(room: DurableObjectStub): Promise<void> {
  const now = Date.now();
  vi.spyOn(Date, "now").mockReturnValue(now + 61_000);
  await runDurableObjectAlarm(room);
  vi.restoreAllMocks();
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** A piece's stand-in bytes: the Worker stores and serves them, the figures say where its parts end. */
const pieceBytes = (n: number) => new Uint8Array(100).map((_, i) => (i + n) % 256);
const putPiece = (key: string, jobId: string, n: number, count = 3) =>
  nodeCall(key, "PUT", `/jobs/${jobId}/live/${n}?seconds=2.000000&initBytes=20&mediaEnd=100&count=${count}`, pieceBytes(n));

describe("a running render's live playlist", () => {
  it("lists the finished prefix, serves each piece to its owner only, ends with ENDLIST, and is gone with the render", { timeout: 30_000 }, async () => {
    const node = await registerNode("live-node");
    const { s, state, room } = await startRender("live-owner", "live");
    expect(state.liveUrl).toBe(`/api/renders/${state.id}/live.m3u8`);
    while ((await claim(node))?.id !== state.id);
    const playlist = async () => {
      const res = await api(s.token, "GET", state.liveUrl as string);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
      return res.text();
    };
    expect(await playlist()).toContain("#EXT-X-PLAYLIST-TYPE:EVENT");
    expect(await playlist()).not.toContain("#EXTINF");
    // An agent gets it from MCP's render tools too, absolute, and told what it is.
    const { result } = await callTool(s.token, "get_render", { slug: "live" });
    const links = (result.structuredContent as { links: { live?: string } }).links;
    expect(links.live).toBe(`http://studio.test${state.liveUrl as string}`);
    expect(textOf(result)).toContain(`play so far as HLS at ${links.live}`);

    // Piece 1 before piece 0: not listed until the prefix reaches it.
    expect((await putPiece(node, state.id, 1)).status).toBe(200);
    expect(await playlist()).not.toContain("#EXTINF");
    expect((await putPiece(node, state.id, 0)).status).toBe(200);
    const two = await playlist();
    expect(two.match(/#EXTINF:2\.000000,/g)).toHaveLength(2);
    expect(two).toContain('#EXT-X-MAP:URI="live/1.mp4",BYTERANGE="20@0"\n#EXTINF:2.000000,\n#EXT-X-BYTERANGE:80@20\nlive/1.mp4');
    expect(two).not.toContain("live/2.mp4");
    expect(two).not.toContain("#EXT-X-ENDLIST");

    // A piece as hls.js asks for its media part: a range.
    const piece = await api(s.token, "GET", `/api/renders/${state.id}/live/1.mp4`, undefined, { Range: "bytes=20-99" });
    expect(piece.status).toBe(206);
    expect(new Uint8Array(await piece.arrayBuffer())).toEqual(pieceBytes(1).slice(20));

    // Another user: neither the playlist nor a piece.
    const other = await signIn("live-stranger");
    expect((await api(other.token, "GET", state.liveUrl as string)).status).toBe(404);
    expect((await api(other.token, "GET", `/api/renders/${state.id}/live/0.mp4`)).status).toBe(404);

    expect((await putPiece(node, state.id, 2)).status).toBe(200);
    expect((await playlist()).trimEnd().endsWith("live/2.mp4\n#EXT-X-ENDLIST")).toBe(true);
    // A piece past the announced count is refused.
    expect((await putPiece(node, state.id, 3)).status).toBe(400);

    // The render ends: its file is the video. A player still polling the playlist gets it whole, ended, with its
    // pieces: its stream ends cleanly instead of on a 404.
    expect((await finishWithFile(node, state.id)).status).toBe(200);
    const done = await json<Record<string, unknown>>(await api(s.token, "GET", `/api/renders/${state.id}`));
    expect(done.status).toBe("done");
    expect(done.liveUrl).toBeUndefined();
    expect((await playlist()).trimEnd().endsWith("live/2.mp4\n#EXT-X-ENDLIST")).toBe(true);
    expect((await api(s.token, "GET", `/api/renders/${state.id}/live/2.mp4`, undefined, { Range: "bytes=20-99" })).status).toBe(206);
    expect((await api(other.token, "GET", state.liveUrl as string)).status).toBe(404);

    // A minute later the room's alarm removes the pieces: the playlist says where the video is.
    await alarmAMinuteLater(room);
    expect((await env.FILES.list({ prefix: `live/${s.userId}/${state.id}/` })).objects).toEqual([]);
    const gone = await api(s.token, "GET", state.liveUrl as string);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain("downloadUrl");
    expect((await api(s.token, "GET", `/api/renders/${state.id}/live/0.mp4`)).status).toBe(404);
  });

  it("ends a failed render's playlist where its pieces end", { timeout: 30_000 }, async () => {
    const node = await registerNode("live-fail-node");
    const { s, state } = await startRender("live-failed", "live-failed");
    while ((await claim(node))?.id !== state.id);
    expect((await putPiece(node, state.id, 0, 5)).status).toBe(200);
    expect((await nodeCall(node, "POST", `/jobs/${state.id}/complete`, { ok: false, error: "stopped by the test" })).status).toBe(200);
    const res = await api(s.token, "GET", state.liveUrl as string);
    expect(res.status).toBe(200);
    expect((await res.text()).trimEnd().endsWith("live/0.mp4\n#EXT-X-ENDLIST")).toBe(true);
  });
});

describe("an ended render's live pieces", () => {
  it("are all removed by the room's alarm, a piece stored in the instant the render ended included", { timeout: 30_000 }, async () => {
    const node = await registerNode("live-orphan-node");
    const { s, state, room } = await startRender("live-orphan", "live-orphan");
    while ((await claim(node))?.id !== state.id);
    expect((await putPiece(node, state.id, 0)).status).toBe(200);
    expect((await finishWithFile(node, state.id)).status).toBe(200);
    // A piece whose upload passed its job check just before the render ended, stored just after the end: what the
    // race leaves in R2.
    await env.FILES.put(`live/${s.userId}/${state.id}/1`, pieceBytes(1));
    // An upload that starts after the end is refused and stores nothing.
    expect((await putPiece(node, state.id, 2)).status).toBe(409);

    await alarmAMinuteLater(room);
    expect((await env.FILES.list({ prefix: `live/${s.userId}/${state.id}/` })).objects).toEqual([]);
  });
});

describe("a live piece's upload", () => {
  it("makes one round trip to D1's primary: the job read, then the room says whether the render still wants the piece", { timeout: 30_000 }, async () => {
    const node = await registerNode("live-trips-node");
    const { state } = await startRender("live-trips", "live-trips");
    // Claimed through the traced Worker, so the node's key is the caller it has cached (traced-worker.ts).
    const claimed = async () => {
      const { body } = await send("/api/node/jobs/claim?wait=0", { method: "POST", headers: bearer(node, { "Content-Type": "application/json" }), body: '{"kinds":["render"]}' });
      return body ? (JSON.parse(body) as { job: { id: string } | null }).job : null;
    };
    while ((await claimed())?.id !== state.id);
    const { res, body, trips, log } = await send(`/api/node/jobs/${state.id}/live/0?seconds=2.000000&initBytes=20&mediaEnd=100&count=3`, {
      method: "PUT",
      headers: bearer(node, { "Content-Type": "video/mp4", "Content-Length": "100" }),
      body: pieceBytes(0),
    });
    expect(res.status, body).toBe(200);
    // Before, the route read the job again from D1 after storing the piece: 2.
    expect(trips, log.join("\n")).toBe(1);
  });

  it("is refused for a render in a format not shown live (a mov): 400, and nothing stored", { timeout: 30_000 }, async () => {
    const node = await registerNode("live-mov-node");
    const s = await signIn("live-mov");
    await createProject(s.token, "live-mov");
    const state = await json<{ id: string; liveUrl?: string | null }>(await api(s.token, "POST", "/api/projects/live-mov/render", { format: "mov", quality: "draft" }));
    expect(state.liveUrl ?? null).toBeNull();
    while ((await claim(node))?.id !== state.id);
    const refused = await putPiece(node, state.id, 0);
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ error: "a mov render is not shown live: it uploads no live pieces" });
    expect((await env.FILES.list({ prefix: `live/${s.userId}/${state.id}/` })).objects).toEqual([]);
  });

  it("is not kept when the render ended while it came up: 409, and nothing of it stays in R2", { timeout: 30_000 }, async () => {
    const node = await registerNode("live-late-node");
    const { s, state } = await startRender("live-late", "live-late");
    while ((await claim(node))?.id !== state.id);
    expect(await json(await api(s.token, "DELETE", "/api/projects/live-late/render"))).toEqual({ stopped: true });
    // The job as the upload's first read found it an instant before the end: still running on this node. The room
    // knows the render ended.
    await env.DB.prepare("UPDATE jobs SET status = 'running' WHERE id = ?").bind(state.id).run();
    const late = await putPiece(node, state.id, 0);
    expect(late.status).toBe(409);
    expect(await json(late)).toMatchObject({ error: "the job ended while the piece was uploaded: it was not kept" });
    expect((await env.FILES.list({ prefix: `live/${s.userId}/${state.id}/` })).objects).toEqual([]);
  });
});
