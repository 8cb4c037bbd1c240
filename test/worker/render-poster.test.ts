// A finished render's poster image (issue 34, point 5): the node uploads it beside the output, and the render's
// state, the render list and the webhook body link it as posterUrl, served like the download (same owner rule);
// a render without one is done all the same, saying why; deleting the render deletes its poster.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { createApiApp } from "../../worker/app.ts";
import { carryGrant } from "../../worker/oauth/oauth-caller.ts";
import { api, BASE, createProject, json, signIn } from "./helpers.ts";
import { claim, deliveredBodies, nodeCall, registerNode } from "./node-helpers.ts";

type State = Record<string, unknown> & { id: string; status: string; filename: string; downloadUrl: string | null; posterUrl: string | null; posterError: string | null };

// The start of a JPEG (SOI, APP0) and some bytes: the Worker stores and serves what the node made, as is.
const POSTER = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]);

/** A GET made in-process as an OAuth grant with projects:read, as an MCP tool makes it (oauth-scopes.test.ts). */
async function asReadGrant(user: { id: string; name: string }, path: string) {
  const req = new Request(`${BASE}${path}`);
  carryGrant(req, { user: { ...user, email: null, avatarUrl: null, provider: "dev", createdAt: 0 }, scopes: ["projects:read"], clientId: "client", grantId: "grant" });
  return createApiApp().fetch(req, env as unknown as Env, { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} } as unknown as ExecutionContext);
}

async function startAndClaim(name: string, slug: string, key: string) {
  const s = await signIn(name);
  await createProject(s.token, slug);
  const res = await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft", webhookUrl: "https://hooks.example.com/poster" });
  const state = await json<State>(res);
  expect(res.status, JSON.stringify(state)).toBe(202);
  expect((await claim(key))!.id).toBe(state.id);
  expect((await nodeCall(key, "PUT", `/jobs/${state.id}/output`, new Uint8Array(64), { "Content-Type": "video/mp4" })).status).toBe(200);
  return { s, state };
}

describe("render posters", () => {
  it("links a done render's poster in GET render, GET /api/renders/:id, the list and the webhook, served as image/jpeg to its owner only", async () => {
    const key = await registerNode();
    const { s, state } = await startAndClaim("poster-owner", "poster", key);
    // Only the node holding the render's job uploads its poster.
    const stranger = await registerNode("other-node");
    expect((await nodeCall(stranger, "PUT", `/jobs/${state.id}/poster`, POSTER, { "Content-Type": "image/jpeg" })).status).toBe(404);
    const up = await nodeCall(key, "PUT", `/jobs/${state.id}/poster`, POSTER, { "Content-Type": "image/jpeg" });
    expect(await up.json()).toEqual({ ok: true, size: POSTER.length });
    expect(await (await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: true })).json()).toEqual({ ok: true });

    const posterUrl = `/renders/${state.filename}/poster`;
    const done = await json<State>(await api(s.token, "GET", "/api/projects/poster/render"));
    expect(done).toMatchObject({ status: "done", downloadUrl: `/renders/${state.filename}`, posterUrl, posterError: null });
    expect(await json<State>(await api(s.token, "GET", `/api/renders/${state.id}`))).toMatchObject({ posterUrl, posterError: null });
    const list = await json<{ renders: { id: string; posterUrl: string | null }[] }>(await api(s.token, "GET", "/api/renders"));
    expect(list.renders).toEqual([expect.objectContaining({ id: state.id, posterUrl })]);
    const [body] = await deliveredBodies(s.userId, state.id);
    expect(body).toMatchObject({ type: "render.done", data: { posterUrl: expect.stringMatching(new RegExp(`^https?://[^/]+${posterUrl.replace(/[.]/g, "\\.")}$`)) } });

    const served = await api(s.token, "GET", posterUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(POSTER);
    // An OAuth app that may read the person's projects may read the poster its render results link, as the file.
    const granted = await asReadGrant({ id: s.userId, name: "poster-owner" }, posterUrl);
    expect(granted.status).toBe(200);
    expect(granted.headers.get("content-type")).toBe("image/jpeg");
    // Another user learns nothing: not found, as for the download.
    const other = await signIn("poster-stranger");
    expect((await api(other.token, "GET", posterUrl)).status).toBe(404);
    expect((await api(other.token, "GET", `/renders/${state.filename}`)).status).toBe(404);

    // Deleting the render deletes its poster with it.
    const stored = async () => (await env.FILES.list({ prefix: `r/${s.userId}/` })).objects.map((o) => o.key);
    expect(await stored()).toEqual([`r/${s.userId}/${state.filename}`, `r/${s.userId}/${state.filename}.poster.jpg`]);
    expect((await api(s.token, "DELETE", `/renders/${state.filename}`)).status).toBe(200);
    expect(await stored()).toEqual([]);
    expect((await api(s.token, "GET", posterUrl)).status).toBe(404);
    expect(await json<State>(await api(s.token, "GET", `/api/renders/${state.id}`))).toMatchObject({ downloadUrl: null, posterUrl: null });
  });

  it("a render whose poster could not be made is done all the same, and its state says why", async () => {
    const key = await registerNode();
    const { s, state } = await startAndClaim("poster-none", "no-poster", key);
    await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: true, posterError: "ffmpeg found no frame at 3 s of the output" });
    const done = await json<State>(await api(s.token, "GET", `/api/renders/${state.id}`));
    expect(done).toMatchObject({ status: "done", downloadUrl: `/renders/${state.filename}`, posterUrl: null, posterError: "ffmpeg found no frame at 3 s of the output" });
    expect((await api(s.token, "GET", `/renders/${state.filename}/poster`)).status).toBe(404);
    const [body] = await deliveredBodies(s.userId, state.id);
    expect(body!.data).toMatchObject({ posterUrl: null, posterError: "ffmpeg found no frame at 3 s of the output" });

    // A node that neither uploads one nor says why: the render is done, and the state says no poster came.
    const { s: silent, state: second } = await startAndClaim("poster-silent", "silent", key);
    await nodeCall(key, "POST", `/jobs/${second.id}/complete`, { ok: true });
    expect(await json<State>(await api(silent.token, "GET", `/api/renders/${second.id}`))).toMatchObject({ status: "done", posterUrl: null, posterError: "the render node uploaded no poster" });
  });
});
