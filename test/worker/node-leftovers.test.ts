// What a node key leaves in R2 when the render it uploads for does not end done. A render's file, poster and
// manifest are counted in the owner's storage, but only a done render offers them (listed, downloadable, deletable):
// a render that fails or is cancelled after its node uploaded them keeps none of them, nor their count. An upload
// that comes up as the render ends (its job still running at the upload's first read, as the node sent it an
// instant before) is not kept either: 409, and nothing of it stays, as for a live piece (live-playlist.test.ts). A
// split render's segment is scratch space, removed at the render's end: one that comes up after that is not kept.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createProject, json, signIn, type Session } from "./helpers.ts";
import { claim, nodeCall, registerNode } from "./node-helpers.ts";
import { splitRender, type State } from "./render-farm-helpers.ts";

const BYTES = new Uint8Array(4096).fill(7);

/** What the user stores in R2 under r/ (renders, posters, manifests). */
const renderObjects = async (s: Session) => (await env.FILES.list({ prefix: `r/${s.userId}/` })).objects.map((o) => o.key);

/** What the user stores in R2 at all (project files and renders), in bytes. */
async function storedInR2(s: Session): Promise<number> {
  const lists = await Promise.all([env.FILES.list({ prefix: `p/${s.userId}/` }), env.FILES.list({ prefix: `r/${s.userId}/` })]);
  return lists.flatMap((l) => l.objects).reduce((n, o) => n + o.size, 0);
}

/** What the user's count says, as GET /api/me shows it. */
const counted = async (s: Session) => (await json<{ storage: { used: number } }>(await api(s.token, "GET", "/api/me"))).storage.used;

/** A render of a new project of `s`, claimed by `node`. */
async function claimedRender(s: Session, node: string, slug: string): Promise<State> {
  await createProject(s.token, slug);
  const state = await json<State>(await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft" }));
  while ((await claim(node))?.id !== state.id); // other tests' renders may be queued too
  return state;
}

/** The render's file, poster and manifest, as its node uploads them before its completion. */
async function uploadAll(node: string, id: string) {
  return {
    output: (await nodeCall(node, "PUT", `/jobs/${id}/output`, BYTES, { "Content-Type": "video/mp4" })).status,
    poster: (await nodeCall(node, "PUT", `/jobs/${id}/poster`, BYTES, { "Content-Type": "image/jpeg" })).status,
    manifest: (await nodeCall(node, "PUT", `/jobs/${id}/manifest`, BYTES, { "Content-Type": "application/json" })).status,
  };
}

/** The job as an upload's first read found it an instant before the render ended: still running on its node. */
const stillRunning = (jobId: string) => env.DB.prepare("UPDATE jobs SET status = 'running' WHERE id = ?").bind(jobId).run();

describe("a render that does not end done", () => {
  /** A fresh user's render, claimed, whose node uploaded its file, poster and manifest (all counted). */
  async function uploadedRender(name: string) {
    const s = await signIn(name);
    const node = await registerNode(`${name}-node`);
    const state = await claimedRender(s, node, name);
    expect(await uploadAll(node, state.id)).toEqual({ output: 200, poster: 200, manifest: 200 });
    expect(await counted(s)).toBe(await storedInR2(s));
    return { s, node, state };
  }

  it("keeps none of what its node uploaded when it fails: no file, poster or manifest in R2, and none counted", { timeout: 60_000 }, async () => {
    const { s, node, state } = await uploadedRender("leftover-failed");
    // A node (or whoever holds its key) reports a failure after its uploads: the render offers no file to download or delete.
    expect((await nodeCall(node, "POST", `/jobs/${state.id}/complete`, { ok: false, error: "boom" })).status).toBe(200);
    expect(await json(await api(s.token, "GET", "/api/projects/leftover-failed/render"))).toMatchObject({ status: "failed", downloadUrl: null });
    expect((await api(s.token, "DELETE", `/renders/${state.filename}`)).status).toBe(404);
    expect(await renderObjects(s)).toEqual([]);
    expect(await counted(s)).toBe(await storedInR2(s));
  });

  it("keeps none of it when its owner cancels it", { timeout: 60_000 }, async () => {
    const { s } = await uploadedRender("leftover-cancelled");
    expect(await json(await api(s.token, "DELETE", "/api/projects/leftover-cancelled/render"))).toEqual({ stopped: true });
    expect(await renderObjects(s)).toEqual([]);
    expect(await counted(s)).toBe(await storedInR2(s));
  });

  it("does not keep an upload that came up as it ended: 409, and nothing of it stays in R2 nor counted", { timeout: 60_000 }, async () => {
    const s = await signIn("leftover-late");
    const node = await registerNode("leftover-late-node");
    const state = await claimedRender(s, node, "leftover-late");
    expect(await json(await api(s.token, "DELETE", "/api/projects/leftover-late/render"))).toEqual({ stopped: true });
    await stillRunning(state.id);
    expect(await uploadAll(node, state.id)).toEqual({ output: 409, poster: 409, manifest: 409 });
    const late = await nodeCall(node, "PUT", `/jobs/${state.id}/output`, BYTES, { "Content-Type": "video/mp4" });
    expect(await json(late)).toEqual({ error: "the job ended while the render's file was uploaded: it was not kept", code: "conflict" });
    expect(await renderObjects(s)).toEqual([]);
    expect(await counted(s)).toBe(await storedInR2(s));
  });
});

describe("a done render", () => {
  it("keeps its file when an upload of its node comes up after its end, also once a newer render of the project started", { timeout: 60_000 }, async () => {
    const s = await signIn("leftover-done");
    const node = await registerNode("leftover-done-node");
    const done = await claimedRender(s, node, "leftover-done");
    expect(await uploadAll(node, done.id)).toEqual({ output: 200, poster: 200, manifest: 200 });
    expect((await nodeCall(node, "POST", `/jobs/${done.id}/complete`, { ok: true })).status).toBe(200);
    const before = await renderObjects(s);
    expect(before).toHaveLength(3);
    // Its own late upload, read as running an instant before the end: the done render's files stay.
    await stillRunning(done.id);
    expect((await nodeCall(node, "PUT", `/jobs/${done.id}/output`, BYTES, { "Content-Type": "video/mp4" })).status).toBe(200);
    expect(await renderObjects(s)).toEqual(before);
    // A newer render of the project is the room's now: the earlier one is still known as done.
    await env.DB.prepare("UPDATE jobs SET status = 'done' WHERE id = ?").bind(done.id).run();
    expect((await api(s.token, "POST", "/api/projects/leftover-done/render", { quality: "draft", force: true })).status).toBeLessThan(300);
    await stillRunning(done.id);
    expect((await nodeCall(node, "PUT", `/jobs/${done.id}/poster`, BYTES, { "Content-Type": "image/jpeg" })).status).toBe(200);
    expect(await renderObjects(s)).toEqual(before);
    expect(await counted(s)).toBe(await storedInR2(s));
    // The newer render is left to no node: the split below wants idle ones.
    expect(await json(await api(s.token, "DELETE", "/api/projects/leftover-done/render"))).toEqual({ stopped: true });
  });
});

describe("a split render's segment", () => {
  it("that came up as the render ended is not kept: 409, and nothing stays under seg/", { timeout: 60_000 }, async () => {
    const { s, b, segment } = await splitRender("leftover-seg");
    expect(await json(await api(s.token, "DELETE", "/api/projects/leftover-seg/render"))).toEqual({ stopped: true });
    await stillRunning(segment.id);
    const late = await nodeCall(b, "PUT", `/jobs/${segment.id}/output`, BYTES);
    expect(late.status).toBe(409);
    expect(await json(late)).toEqual({ error: "the job ended while the segment was uploaded: it was not kept", code: "conflict" });
    expect((await env.FILES.list({ prefix: `seg/${s.userId}/` })).objects).toEqual([]);
  });
});
