// Incremental re-render through the API (issue 35 point 2): the Worker hands a render job the project's latest done
// render of the same composition to carry from, never another project's or a deleted one; only the node holding
// that job reads its output and manifest; the manifest is stored beside the output and deleted with it; the render's
// state, the render list and the log say what was carried. A render answered by the render cache has its original's
// manifest copied beside its file, so the next edit carries from it as from any render.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, nodeCall, registerNode } from "./node-helpers.ts";

type State = Record<string, unknown> & { id: string; status: string; filename: string; lines: string[] };

const OUTPUT = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
const MANIFEST = JSON.stringify({ version: 1, key: "k", firstFrame: 0, fingerprints: ["0123456789abcdef"] });
const bytes = (text: string) => new TextEncoder().encode(text);

/**
 * One render of `slug`, claimed by `key`, its output (and unless told otherwise its manifest) uploaded; not completed.
 * force: the files are often the same as the render before's, which the render cache would answer with a copy.
 */
async function renderClaimed(token: string, slug: string, key: string, options: Record<string, unknown> = {}) {
  const res = await api(token, "POST", `/api/projects/${slug}/render`, { quality: "draft", force: true, ...options });
  const state = await json<State>(res);
  expect(res.status, JSON.stringify(state)).toBe(202);
  const job = (await claim(key))!;
  expect(job.id).toBe(state.id);
  expect((await nodeCall(key, "PUT", `/jobs/${state.id}/output`, OUTPUT, { "Content-Type": "video/mp4" })).status).toBe(200);
  return { state, job };
}

async function renderDone(token: string, slug: string, key: string, manifest = true, options: Record<string, unknown> = {}) {
  const { state, job } = await renderClaimed(token, slug, key, options);
  if (manifest) expect(await (await nodeCall(key, "PUT", `/jobs/${state.id}/manifest`, bytes(MANIFEST), { "Content-Type": "application/json" })).json()).toEqual({ ok: true, size: MANIFEST.length });
  expect(await (await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: true })).json()).toEqual({ ok: true });
  return { state, job };
}

describe("incremental re-render through the API", () => {
  it("hands the next render the latest done render of the project, which only its node reads, and shows what it carried", async () => {
    const key = await registerNode();
    const s = await signIn("carry-owner");
    await createProject(s.token, "carry");
    const first = await renderDone(s.token, "carry", key);
    expect(first.job.carryFrom ?? null).toBeNull();
    const { state, job } = await renderClaimed(s.token, "carry", key);
    expect(job.carryFrom).toBe(first.state.id);

    // The node holding the job reads the previous output and manifest; another node, nothing.
    const output = await nodeCall(key, "GET", `/jobs/${state.id}/previous/output`);
    expect(new Uint8Array(await output.arrayBuffer())).toEqual(OUTPUT);
    expect(await (await nodeCall(key, "GET", `/jobs/${state.id}/previous/manifest`)).text()).toBe(MANIFEST);
    const stranger = await registerNode("other-node");
    expect((await nodeCall(stranger, "GET", `/jobs/${state.id}/previous/output`)).status).toBe(404);
    expect((await nodeCall(stranger, "GET", `/jobs/${state.id}/previous/manifest`)).status).toBe(404);

    const carried = { from: first.state.id, segments: 8, frames: 480, of: 10 };
    expect(await (await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: true, carried })).json()).toEqual({ ok: true });
    const done = await json<State>(await api(s.token, "GET", "/api/projects/carry/render"));
    expect(done).toMatchObject({ status: "done", carriedFrom: first.state.id, carriedSegments: 8, carriedFrames: 480 });
    expect(done.lines).toContain(`carried 8 of 10 segments from render ${first.state.id} (480 frames neither captured nor encoded)`);
    expect(await json<State>(await api(s.token, "GET", `/api/renders/${state.id}`))).toMatchObject({ carriedFrom: first.state.id, carriedSegments: 8, carriedFrames: 480 });
    const list = await json<{ renders: Record<string, unknown>[] }>(await api(s.token, "GET", "/api/renders"));
    expect(list.renders.find((r) => r.id === state.id)).toMatchObject({ carriedFrom: first.state.id, carriedSegments: 8, carriedFrames: 480 });
    // A render that was handed none shows none of the fields.
    expect(list.renders.find((r) => r.id === first.state.id)).not.toHaveProperty("carriedFrom");
  });

  it("never hands another project's render, another user's, another format's, one without a manifest, or a deleted one", async () => {
    const key = await registerNode();
    const other = await signIn("carry-other");
    await createProject(other.token, "same-name");
    await renderDone(other.token, "same-name", key);
    const s = await signIn("carry-self");
    await createProject(s.token, "same-name");
    await createProject(s.token, "sibling");
    await renderDone(s.token, "sibling", key);
    // Neither the other user's render of a project of the same name nor the sibling project's.
    const alone = await renderDone(s.token, "same-name", key, false);
    expect(alone.job.carryFrom ?? null).toBeNull();
    // The render before had no manifest: nothing to carry from.
    const second = await renderDone(s.token, "same-name", key);
    expect(second.job.carryFrom ?? null).toBeNull();
    const third = await renderDone(s.token, "same-name", key);
    expect(third.job.carryFrom).toBe(second.state.id);
    // A render of another format is not handed (its frames are encoded otherwise), nor hands itself to this format.
    const webm = await renderDone(s.token, "same-name", key, true, { format: "webm" });
    expect(webm.job.carryFrom ?? null).toBeNull();

    // Deleting a render deletes its manifest with it, and it is never handed again: the one before it is.
    expect((await api(s.token, "DELETE", `/renders/${third.state.filename}`)).status).toBe(200);
    const stored = (await env.FILES.list({ prefix: `r/${s.userId}/${third.state.filename}` })).objects.map((o) => o.key);
    expect(stored).toEqual([]);
    const { state, job } = await renderClaimed(s.token, "same-name", key);
    expect(job.carryFrom).toBe(second.state.id);

    // A completion claiming to have carried from a render it was not handed shows nothing of it.
    await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: true, carried: { from: third.state.id, segments: 1, frames: 20, of: 2 } });
    expect(await json<State>(await api(s.token, "GET", `/api/renders/${state.id}`))).not.toHaveProperty("carriedFrom");
  });

  it("hands the next render a render answered by the render cache, with the manifest of the render it reused, even once that one is deleted", async () => {
    const key = await registerNode();
    const s = await signIn("carry-cached");
    await createProject(s.token, "cached-carry");
    const first = await renderDone(s.token, "cached-carry", key);
    // The same inputs again, without force: answered from the render cache, no node.
    const res = await api(s.token, "POST", "/api/projects/cached-carry/render", { quality: "draft" });
    expect(res.status).toBe(200);
    const reused = await json<State & { reusedFrom?: string }>(res);
    expect(reused.reusedFrom).toBe(first.state.id);
    // The original deleted: the reuse still has its own copy of the manifest to carry from.
    expect((await api(s.token, "DELETE", `/renders/${first.state.filename}`)).status).toBe(200);

    // The next edit's render is handed the reuse, the latest done render, and reads the reused render's manifest.
    await api(s.token, "PUT", "/api/projects/cached-carry/files/assets/notes.txt", "an edit");
    const { state, job } = await renderClaimed(s.token, "cached-carry", key);
    expect(job.carryFrom).toBe(reused.id);
    expect(await (await nodeCall(key, "GET", `/jobs/${state.id}/previous/manifest`)).text()).toBe(MANIFEST);
    expect(new Uint8Array(await (await nodeCall(key, "GET", `/jobs/${state.id}/previous/output`)).arrayBuffer())).toEqual(OUTPUT);
    await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: false, error: "stopped by the test" });

    // Deleted with the reuse's file, as any render's manifest.
    expect((await api(s.token, "DELETE", `/renders/${reused.filename}`)).status).toBe(200);
    expect((await env.FILES.list({ prefix: `r/${s.userId}/${reused.filename}` })).objects).toEqual([]);
  });
});
