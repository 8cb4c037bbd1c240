// The render cache (issue 35, point 1): a render whose inputs are those of a done render of the same project is
// answered at once, done, as a copy of it (`reusedFrom`), with no job and no render-seconds; any change of an input,
// another user, a failed original, a deleted file or `force: true` renders anew. The key is one pure function of
// the project's files by content, the options after defaults, the variables and the render engine.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { renderCacheKey, type HashedFile } from "../../core/render/render-cache-key.ts";
import { parseRenderOptions, type RenderOptions } from "../../core/render/render-options.ts";
import { RENDER_ENGINE_VERSION } from "../../core/render/render-engine.ts";
import { SHIPPED_GSAP_VERSIONS } from "../../core/composition/gsap-versions.ts";
import { api, createProject, json, signIn, type Session } from "./helpers.ts";
import { claim, nodeCall, registerNode, sseReader } from "./node-helpers.ts";

type State = Record<string, unknown> & { id: string; status: string; filename: string; downloadUrl: string | null; posterUrl: string | null; reusedFrom?: string; lines?: string[] };

const options = (given: Record<string, unknown> = {}): RenderOptions => {
  const parsed = parseRenderOptions(given);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.options;
};
const FILES: HashedFile[] = [
  { path: "index.html", hash: "a1" },
  { path: "assets/logo.png", hash: "b2" },
];
const keyOf = (files: HashedFile[], given: Record<string, unknown> = {}, engine?: { version: string; gsapVersions: readonly string[] }) =>
  renderCacheKey({ files, options: options(given), ...(engine ? { engine } : {}) });

describe("the render cache's key", () => {
  it("changes with each input: a file's content, a file added or removed, each render option, the variables, the engine", async () => {
    const base = await keyOf(FILES);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    // Defaults applied: asking for the defaults is the same render; the files' order is not an input.
    expect(await keyOf([...FILES].reverse(), { quality: "standard", format: "mp4", composition: "index.html", strict: false })).toBe(base);
    const changed = [
      keyOf([{ path: "index.html", hash: "a1x" }, FILES[1]!]),
      keyOf([...FILES, { path: "notes.txt", hash: "c3" }]),
      keyOf([FILES[0]!]),
      keyOf([{ path: "logo.png", hash: "b2" }, FILES[0]!]),
      keyOf(FILES, { format: "webm" }),
      keyOf(FILES, { quality: "draft" }),
      keyOf(FILES, { fps: 24 }),
      keyOf(FILES, { resolution: "square" }),
      keyOf(FILES, { from: 1 }),
      keyOf(FILES, { to: 2 }),
      keyOf(FILES, { strict: true }),
      keyOf(FILES, { crf: 20 }),
      keyOf(FILES, { videoBitrate: "10M" }),
      keyOf(FILES, { format: "gif", gifLoop: 2 }),
      keyOf(FILES, { composition: "other.html" }),
      keyOf(FILES, { variables: { title: "Hello" } }),
      keyOf(FILES, { strictVariables: true }),
      keyOf(FILES, {}, { version: `${RENDER_ENGINE_VERSION}+1`, gsapVersions: SHIPPED_GSAP_VERSIONS }),
      keyOf(FILES, {}, { version: RENDER_ENGINE_VERSION, gsapVersions: [...SHIPPED_GSAP_VERSIONS, "3.99.0"] }),
    ];
    const keys = await Promise.all(changed);
    expect(new Set([base, ...keys]).size).toBe(keys.length + 1);
    expect(await keyOf(FILES, { format: "gif" })).not.toBe(await keyOf(FILES, { format: "gif", gifLoop: 2 }));
    expect(await keyOf(FILES, { variables: { title: "Hello" } })).not.toBe(await keyOf(FILES, { variables: { title: "Hello!" } }));
  });

  it("does not change with what never changes the output: wait, webhookUrl, metadata, force, the variables' key order", async () => {
    const base = await keyOf(FILES, { variables: { a: 1, b: { c: 2, d: 3 } } });
    expect(await keyOf(FILES, { variables: { b: { d: 3, c: 2 }, a: 1 }, wait: true, webhookUrl: "https://hooks.example.com/x", metadata: { task: "t" }, force: true })).toBe(base);
  });
});

// The start of a JPEG (SOI, APP0) and some bytes: the Worker stores and serves what the node made, as is.
const POSTER = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]);
const VIDEO = new Uint8Array(Array.from({ length: 256 }, (_, i) => i));
const FINDING = "warning [font-fallback] index.html: font \"Brand Sans\" is not available; rendered with a fallback";

const post = async (s: Session, slug: string, body: Record<string, unknown> = { quality: "draft" }) => {
  const res = await api(s.token, "POST", `/api/projects/${slug}/render`, body);
  return { status: res.status, state: await json<State>(res) };
};
const jobCount = async (userId: string) => (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?").bind(userId).first<{ n: number }>())!.n;
const charged = async (renderId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM render_charges WHERE render_id = ?").bind(renderId).first<{ n: number }>())?.n ?? 0;
const bytesOf = async (s: Session, url: string): Promise<Uint8Array<ArrayBuffer>> => new Uint8Array(await (await api(s.token, "GET", url)).arrayBuffer());

/** Claims jobs until the node holds `renderId`'s (storage is shared within this file: earlier tests may leave some). */
async function claimOwn(key: string, renderId: string): Promise<void> {
  for (let job = await claim(key); job?.id !== renderId; job = await claim(key)) {
    if (!job) throw new Error(`render ${renderId} has no queued job`);
  }
}

/** A render of `slug` rendered by the test's node: a finding in its log, its file and poster uploaded, done. */
async function renderDone(key: string, s: Session, slug: string, body?: Record<string, unknown>, video = VIDEO): Promise<State> {
  const { status, state } = await post(s, slug, body);
  expect(status, JSON.stringify(state)).toBe(202);
  await claimOwn(key, state.id);
  expect((await nodeCall(key, "POST", `/jobs/${state.id}/progress`, { lines: [FINDING] })).status).toBe(200);
  expect((await nodeCall(key, "PUT", `/jobs/${state.id}/output`, video, { "Content-Type": "video/mp4" })).status).toBe(200);
  expect((await nodeCall(key, "PUT", `/jobs/${state.id}/poster`, POSTER, { "Content-Type": "image/jpeg" })).status).toBe(200);
  expect(await (await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: true })).json()).toEqual({ ok: true });
  return json<State>(await api(s.token, "GET", `/api/projects/${slug}/render`));
}

/** A POST that must render anew: a 202, its job queued; the node then fails it so the project is free again. */
async function expectMiss(key: string, s: Session, slug: string, body?: Record<string, unknown>): Promise<void> {
  const { status, state } = await post(s, slug, body);
  expect(status, JSON.stringify(state)).toBe(202);
  expect(state.reusedFrom).toBeUndefined();
  await claimOwn(key, state.id);
  await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: false, error: "stopped by the test" });
}

describe("a render with the inputs of a done render", () => {
  it("is answered at once, done, as a copy of it: no job, nothing charged, the same bytes and poster, its findings shown", async () => {
    const key = await registerNode();
    const s = await signIn("cache-hit");
    await createProject(s.token, "cached");
    const first = await renderDone(key, s, "cached");
    expect(first).toMatchObject({ status: "done", downloadUrl: `/renders/${first.filename}` });
    expect(first.reusedFrom).toBeUndefined();
    const jobs = await jobCount(s.userId);

    const started = Date.now();
    const { status, state } = await post(s, "cached");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(status).toBe(200);
    expect(state).toMatchObject({ status: "done", reusedFrom: first.id, size: VIDEO.length, actual: { renderSeconds: 0 } });
    expect(state.id).not.toBe(first.id);
    expect(state.filename).not.toBe(first.filename);
    expect(await jobCount(s.userId)).toBe(jobs);
    expect(await env.DB.prepare("SELECT id FROM jobs WHERE id LIKE ?").bind(`${state.id}%`).first()).toBeNull();
    expect(await charged(state.id)).toBe(0);

    // GET render, GET /api/renders/:id and the list mark it; its log says why and carries the original's finding.
    const got = await json<State>(await api(s.token, "GET", "/api/projects/cached/render"));
    expect(got).toMatchObject({ id: state.id, status: "done", reusedFrom: first.id, downloadUrl: `/renders/${state.filename}`, posterUrl: `/renders/${state.filename}/poster` });
    expect(got.lines![0]).toContain(`reused render ${first.id}`);
    expect(got.lines).toContain(FINDING);
    expect(await json<State>(await api(s.token, "GET", `/api/renders/${state.id}`))).toMatchObject({ reusedFrom: first.id });
    const list = await json<{ renders: { id: string; reusedFrom?: string }[] }>(await api(s.token, "GET", "/api/renders"));
    expect(list.renders.find((r) => r.id === state.id)).toMatchObject({ reusedFrom: first.id });
    expect(list.renders.find((r) => r.id === first.id)?.reusedFrom).toBeUndefined();

    // Its events: a stream opened now gets its ended state and closes.
    const events = sseReader(await api(s.token, "GET", "/api/projects/cached/render/events"));
    const snapshot = await events.next();
    expect(snapshot).toMatchObject({ event: "snapshot", data: { id: state.id, status: "done", reusedFrom: first.id } });

    // The same bytes; deleting the original leaves the reuse whole (its own copy).
    expect(await bytesOf(s, `/renders/${state.filename}`)).toEqual(VIDEO);
    expect(await bytesOf(s, `/renders/${state.filename}/poster`)).toEqual(POSTER);
    expect((await api(s.token, "DELETE", `/renders/${first.filename}`)).status).toBe(200);
    expect(await bytesOf(s, `/renders/${state.filename}`)).toEqual(VIDEO);
    expect(await bytesOf(s, `/renders/${state.filename}/poster`)).toEqual(POSTER);

    // With the original deleted, the reuse is what the next identical render reuses; with wait, it answers its log.
    const again = await post(s, "cached", { quality: "draft", wait: true });
    expect(again.status).toBe(200);
    expect(again.state).toMatchObject({ status: "done", reusedFrom: state.id });
    expect(again.state.lines).toContain(FINDING);
  });

  it("copies a file larger than one copy piece (1 MiB, reuse-render.ts) whole", async () => {
    const key = await registerNode();
    const s = await signIn("cache-large");
    await createProject(s.token, "large");
    const large = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => (i * 31) % 251);
    await renderDone(key, s, "large", undefined, large);
    const { status, state } = await post(s, "large");
    expect(status).toBe(200);
    expect(state).toMatchObject({ status: "done", size: large.length });
    // Compared by digest: a deep equality of 3 MiB element by element takes seconds.
    const digest = async (bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    const copy = await bytesOf(s, `/renders/${state.filename}`);
    expect(copy.length).toBe(large.length);
    expect(await digest(copy)).toEqual(await digest(large));
  }, 20_000); // 3 MiB up and copied in parts through local R2: about 4 s on a loaded machine

  it("misses on any change of an input, for another user's identical project, and with force", async () => {
    const key = await registerNode();
    const s = await signIn("cache-miss");
    await createProject(s.token, "misses");
    await renderDone(key, s, "misses");
    // An option, the variables, a file's content, a new file: each renders anew.
    await expectMiss(key, s, "misses", { quality: "standard" });
    await expectMiss(key, s, "misses", { quality: "draft", variables: { title: "x" } });
    await expectMiss(key, s, "misses", { quality: "draft", force: true });
    await api(s.token, "PUT", "/api/projects/misses/files/assets/notes.txt", "a note");
    await expectMiss(key, s, "misses");
    // The Worker's copy of a linked Google Fonts stylesheet, kept in the project by a render's job: the next render
    // is given it, so its output may differ (a font where the first one fell back).
    const done = await renderDone(key, s, "misses");
    // Unchanged, it is reused (under a file name free of the failed renders' rows of the same second).
    expect(await post(s, "misses")).toMatchObject({ status: 200, state: { status: "done", reusedFrom: done.id } });
    await env.FILES.put(`p/${s.userId}/misses/__studio/fonts/google/0123456789abcdef.css`, "@font-face { font-family: Inter; }");
    await expectMiss(key, s, "misses");
    // Another user's project with the same name and the same files: never theirs.
    const other = await signIn("cache-other");
    await createProject(other.token, "misses");
    await expectMiss(key, other, "misses");
  }, 20_000); // eight renders one after another

  it("is not missed for a snapshot taken meanwhile (no render is given the snapshots folder), and misses for a file a render loads", async () => {
    const key = await registerNode();
    const s = await signIn("cache-snapshot");
    await createProject(s.token, "snapped");
    const done = await renderDone(key, s, "snapped");
    // What a snapshot leaves in the project: PNG frames and a contact sheet under snapshots/ (the studio's output).
    await env.FILES.put(`p/${s.userId}/snapped/snapshots/frame-01-0.000s.png`, POSTER);
    await env.FILES.put(`p/${s.userId}/snapped/snapshots/contact-sheet.png`, POSTER);
    expect(await post(s, "snapped")).toMatchObject({ status: 200, state: { status: "done", reusedFrom: done.id } });

    // A render's job is not given them, so no render can load them (nor carry its segments past them).
    const { status, state } = await post(s, "snapped", { quality: "draft", force: true });
    expect(status).toBe(202);
    await claimOwn(key, state.id);
    const listed = await json<{ files: { path: string }[] }>(await nodeCall(key, "GET", `/jobs/${state.id}/files`));
    expect(listed.files.map((f) => f.path)).toContain("index.html");
    expect(listed.files.filter((f) => f.path.startsWith("snapshots/"))).toEqual([]);
    await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: false, error: "stopped by the test" });

    // A file the composition can load is an input: its change misses.
    await api(s.token, "PUT", "/api/projects/snapped/files/assets/logo.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>");
    await expectMiss(key, s, "snapped");
  });

  it("never reuses a failed or cancelled render, nor one whose file was deleted", async () => {
    const key = await registerNode();
    const s = await signIn("cache-never");
    await createProject(s.token, "never");
    // Failed, then cancelled: the same inputs render again each time.
    await expectMiss(key, s, "never");
    await expectMiss(key, s, "never");
    const { state } = await post(s, "never");
    expect((await api(s.token, "DELETE", "/api/projects/never/render")).status).toBe(200);
    expect(await json<State>(await api(s.token, "GET", `/api/renders/${state.id}`))).toMatchObject({ status: "cancelled" });
    const done = await renderDone(key, s, "never");
    expect((await api(s.token, "DELETE", `/renders/${done.filename}`)).status).toBe(200);
    await expectMiss(key, s, "never");
  });
});
