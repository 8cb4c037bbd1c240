// A render's life over the real protocol, a node played by the test: one at a time, options refused with 400,
// formats and encoder options handed to the node, the caller's metadata, cancel, wait, a lease that lapses to the
// last attempt, the project deleted, node endpoints for node keys only. Downloads and the event stream:
// render-downloads-and-events.test.ts.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, deliveredBodies, nodeCall, registerNode } from "./node-helpers.ts";
import { completeJob, renderState, type State } from "./render-farm-helpers.ts";

describe("render lifecycle", () => {
  it("queues a render, keeps one at a time, and a node takes it to done with a downloadable file", async () => {
    const key = await registerNode();
    const s = await signIn("render-life");
    await createProject(s.token, "Life");
    expect(await renderState(s.token, "life")).toEqual({ status: "none", recent: [] });

    const first = await api(s.token, "POST", "/api/projects/life/render", { format: "webm", quality: "draft" });
    expect(first.status).toBe(202);
    const state = await json<State>(first);
    expect(state).toMatchObject({ slug: "life", status: "queued", downloadUrl: null, eventsUrl: "/api/projects/life/render/events" });
    expect(state.filename).toMatch(/^life_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.webm$/);
    expect(state.lines).toBeUndefined();

    const second = await api(s.token, "POST", "/api/projects/life/render", { format: "gif" });
    expect(second.status).toBe(200);
    expect((await json<State>(second)).id).toBe(state.id);

    const job = await claim(key);
    expect(job).toMatchObject({ id: state.id, kind: "render", slug: "life", composition: "index.html", options: { format: "webm", quality: "draft" } });
    expect((await renderState(s.token, "life")).status).toBe("rendering");
    expect(await claim(key)).toBeNull();

    const files = await json<{ files: { path: string }[] }>(await nodeCall(key, "GET", `/jobs/${state.id}/files`));
    expect(files.files.map((f) => f.path)).toContain("index.html");
    const html = await nodeCall(key, "GET", `/jobs/${state.id}/files/index.html`);
    expect(await html.text()).toContain('data-composition-id="life"');

    const video = new Uint8Array(1000).map((_, i) => i % 251);
    expect(await (await completeJob(key, state.id, video)).json()).toEqual({ ok: true });
    const done = await renderState(s.token, "life");
    expect(done).toMatchObject({ status: "done", downloadUrl: `/renders/${state.filename}`, size: 1000 });
    expect(typeof done.doneAt).toBe("number");
    expect(done.lines).toEqual(expect.arrayContaining(["capturing", "frame 90/180 (50%), 12.0 fps, ETA 7 s", `render done: ${state.filename}`]));
    expect(done.progress).toMatchObject({ frame: 180, total: 180, percent: 100 });

    const file = await api(s.token, "GET", `/renders/${state.filename}`);
    expect(file.headers.get("Content-Type")).toBe("video/webm");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(video);
    const part = await api(s.token, "GET", `/renders/${state.filename}`, undefined, { Range: "bytes=10-19" });
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(video.slice(10, 20));
    const dl = await api(s.token, "GET", `/renders/${state.filename}?download`);
    expect(dl.headers.get("Content-Disposition")).toContain(`filename="${state.filename}"`);

    const list = await json<{ renders: Record<string, unknown>[] }>(await api(s.token, "GET", "/api/renders"));
    expect(list.renders).toEqual([{ id: state.id, filename: state.filename, project: "life", size: 1000, mtime: expect.any(String), url: `/renders/${state.filename}`, posterUrl: null }]);
    const projects = await json<{ projects: { render: State }[] }>(await api(s.token, "GET", "/api/projects"));
    expect(projects.projects[0]?.render).toMatchObject({ status: "done", filename: state.filename });

    // Another user sees none of it.
    const other = await signIn("render-other");
    expect((await api(other.token, "GET", `/renders/${state.filename}`)).status).toBe(404);
    expect(await json(await api(other.token, "GET", "/api/renders"))).toEqual({ renders: [], next: null });

    // A new render writes a new file; the earlier one stays.
    const again = await json<State>(await api(s.token, "POST", "/api/projects/life/render", { format: "webm" }));
    expect(again.id).not.toBe(state.id);
    expect(again.filename).not.toBe(state.filename);
    const job2 = await claim(key);
    await completeJob(key, job2!.id, new Uint8Array(10));
    const names = (await json<{ renders: { filename: string }[] }>(await api(s.token, "GET", "/api/renders"))).renders.map((r) => r.filename);
    expect(names).toEqual([again.filename, state.filename]);

    const del = await api(s.token, "DELETE", `/renders/${state.filename}`);
    expect(await del.json()).toEqual({ deleted: true, filename: state.filename });
    expect((await api(s.token, "GET", `/renders/${state.filename}`)).status).toBe(404);
  });

  it("rejects invalid options with 400 naming the option, and starts nothing", async () => {
    const key = await registerNode();
    const s = await signIn("render-bad");
    await createProject(s.token, "Bad");
    const cases: [unknown, RegExp][] = [
      [{ format: "avi" }, /invalid format: "avi"; allowed values: mp4, webm, mov, gif, png-sequence/],
      // Encoder options within HyperFrames' ranges, each only with the formats it applies to.
      [{ crf: 52 }, /^invalid crf: 52; give an integer from 0 to 51 for mp4$/],
      [{ crf: 70, format: "webm" }, /^invalid crf: 70; give an integer from 0 to 51 for mp4 or to 63 for webm$/],
      [{ crf: 18, format: "mov" }, /^invalid crf: applies to mp4 and webm only, not mov$/],
      [{ crf: 18, videoBitrate: "5M" }, /^invalid videoBitrate: give either crf or videoBitrate, not both$/],
      [{ videoBitrate: "lots" }, /^invalid videoBitrate: "lots"; give bits per second such as "10M", "2500k" or "8000000", from 50k to 500M$/],
      [{ videoBitrate: "9G", format: "webm" }, /^invalid videoBitrate: "9G"/],
      [{ videoBitrate: "5M", format: "gif" }, /^invalid videoBitrate: applies to mp4 and webm only, not gif$/],
      [{ gifLoop: 2 }, /^invalid gifLoop: applies to gif only, not mp4$/],
      [{ gifLoop: -1, format: "gif" }, /^invalid gifLoop: -1; give an integer from 0 \(loop forever\) to 65535$/],
      [{ fps: "fast" }, /invalid fps/],
      [{ resolution: "huge" }, /invalid resolution/],
      [{ composition: "compositions/missing.html" }, /no file compositions\/missing.html/],
      [{ wait: "soon" }, /invalid wait/],
      // A render's own webhook follows the project webhook's destination rule, at once.
      [{ webhookUrl: "http://[::ffff:127.0.0.1]:8787/hook" }, /invalid webhookUrl: .*loopback/],
      [{ webhookUrl: "http://169.254.169.254/latest" }, /invalid webhookUrl: .*link-local/],
      // The caller's metadata: a JSON object within its limits, or nothing starts.
      [{ metadata: ["t-42"] }, /^invalid metadata: give a JSON object of your own, such as \{"taskId":"t-42"\}$/],
      [{ metadata: "t-42" }, /^invalid metadata: give a JSON object/],
      [{ metadata: { note: "x".repeat(4100) } }, /^invalid metadata: 4\d{3} bytes as JSON; at most 4096$/],
      [{ metadata: { a: { b: { c: { d: { e: { f: 1 } } } } } } }, /^invalid metadata: nested deeper than 5 levels$/],
      ['{"metadata":{"__proto__":{"admin":true}}}', /^invalid metadata: key "__proto__" is reserved$/],
      [{ meta: {} }, /^invalid body: unknown render option meta; allowed options: quality, fps, .*, gifLoop, from, to, metadata$/],
      ["[1,2", /invalid JSON/],
    ];
    for (const [body, message] of cases) {
      const res = await api(s.token, "POST", "/api/projects/bad/render", body, { "Content-Type": "application/json" });
      expect(res.status).toBe(400);
      expect((await json<{ error: string }>(res)).error).toMatch(message);
    }
    expect((await renderState(s.token, "bad")).status).toBe("none");
    expect(await claim(key)).toBeNull();
  });

  it("queues a png-sequence as a .zip served as application/zip, and hands crf and gifLoop to the node", async () => {
    const key = await registerNode();
    const s = await signIn("render-zip");
    await createProject(s.token, "Frames");
    const state = await json<State>(await api(s.token, "POST", "/api/projects/frames/render", { format: "png-sequence" }));
    expect(state.filename).toMatch(/^frames_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.zip$/);
    expect(await claim(key)).toMatchObject({ id: state.id, options: { format: "png-sequence" } });
    const zip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
    await completeJob(key, state.id, zip);
    const done = await renderState(s.token, "frames");
    expect(done).toMatchObject({ status: "done", downloadUrl: `/renders/${state.filename}` });
    const file = await api(s.token, "GET", `/renders/${state.filename}?download`);
    expect(file.headers.get("Content-Type")).toBe("application/zip");
    expect(file.headers.get("Content-Disposition")).toContain(`${state.filename}`);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(zip);
    const listed = await json<{ renders: { filename: string }[] }>(await api(s.token, "GET", "/api/renders"));
    expect(listed.renders.map((r) => r.filename)).toContain(state.filename);

    await createProject(s.token, "Tuned");
    const tuned = await json<State>(await api(s.token, "POST", "/api/projects/tuned/render", { format: "webm", crf: 40 }));
    expect(await claim(key)).toMatchObject({ id: tuned.id, options: { format: "webm", crf: 40 } });
    await createProject(s.token, "Looped");
    const looped = await json<State>(await api(s.token, "POST", "/api/projects/looped/render", { format: "gif", gifLoop: 2 }));
    expect(await claim(key)).toMatchObject({ id: looped.id, options: { format: "gif", gifLoop: 2 } });
  });

  it("keeps the caller's metadata as given: in the render's state and its webhook's body, never on the node", async () => {
    const key = await registerNode();
    const s = await signIn("render-metadata");
    await createProject(s.token, "Tagged");
    const metadata = { taskId: "t-42", customer: { id: 7, tier: "pro" }, tags: ["draft", null, 1.5], "ünïcode": "✓" };
    const res = await api(s.token, "POST", "/api/projects/tagged/render", { format: "webm", webhookUrl: "https://hooks.example.com/tagged", metadata });
    expect(res.status).toBe(202);
    const state = await json<State>(res);
    expect(state.metadata).toEqual(metadata);
    // The node renders by the options that decide the frames; where the webhook goes and the caller's own data are not its.
    const job = await claim(key);
    expect(job).toMatchObject({ id: state.id, options: { format: "webm" } });
    expect(Object.keys(job!.options)).not.toContain("metadata");
    expect(Object.keys(job!.options)).not.toContain("webhookUrl");
    expect((await completeJob(key, state.id, new Uint8Array(64))).status).toBe(200);
    expect(await renderState(s.token, "tagged")).toMatchObject({ status: "done", metadata });
    expect((await json<State>(await api(s.token, "GET", `/api/renders/${state.id}`))).metadata).toEqual(metadata);
    expect(await deliveredBodies(s.userId, state.id)).toMatchObject([{ type: "render.done", data: { id: state.id, metadata } }]);
    // A render without metadata has none in its state or its webhook (not an empty object).
    const plain = await json<State>(await api(s.token, "POST", "/api/projects/tagged/render", { webhookUrl: "https://hooks.example.com/plain" }));
    expect("metadata" in plain).toBe(false);
    expect((await claim(key))!.id).toBe(plain.id);
    await completeJob(key, plain.id, new Uint8Array(64));
    const [plainBody] = await deliveredBodies(s.userId, plain.id);
    expect(plainBody!.type).toBe("render.done");
    expect("metadata" in plainBody!.data).toBe(false);
  });

  it("cancels: { stopped }, status cancelled, and the node is told at its next progress post", async () => {
    const key = await registerNode();
    const s = await signIn("render-cancel");
    await createProject(s.token, "Cancel Me");
    const state = await json<State>(await api(s.token, "POST", "/api/projects/cancel-me/render", {}));
    await claim(key);
    expect(await (await nodeCall(key, "POST", `/jobs/${state.id}/progress`, { lines: ["frame 1/10"] })).json()).toEqual({ cancelled: false });
    expect(await (await api(s.token, "DELETE", "/api/projects/cancel-me/render")).json()).toEqual({ stopped: true });
    const after = await renderState(s.token, "cancel-me");
    expect(after.status).toBe("cancelled");
    expect(after.lines?.at(-1)).toBe("render cancelled: cancelled by the user");
    expect(await (await nodeCall(key, "POST", `/jobs/${state.id}/progress`, { lines: ["frame 2/10"] })).json()).toEqual({ cancelled: true });
    expect(await (await api(s.token, "DELETE", "/api/projects/cancel-me/render")).json()).toEqual({ stopped: false });
    // A late completion from the node changes nothing.
    await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: false, error: "killed" });
    expect((await renderState(s.token, "cancel-me")).status).toBe("cancelled");
  });

  it("wait holds the POST until the render ends and returns the full log", async () => {
    const key = await registerNode();
    const s = await signIn("render-wait");
    await createProject(s.token, "Waiter");
    const waiting = api(s.token, "POST", "/api/projects/waiter/render?wait=1", { format: "mp4" });
    let job = null;
    for (let i = 0; i < 50 && !job; i++) job = await claim(key);
    expect(job).not.toBeNull();
    await nodeCall(key, "POST", `/jobs/${job!.id}/progress`, { lines: ["encoding"] });
    await nodeCall(key, "POST", `/jobs/${job!.id}/complete`, { ok: false, error: "ffmpeg exited with code 1: Unknown encoder" });
    const res = await waiting;
    expect(res.status).toBe(200);
    const body = await json<State>(res);
    expect(body.status).toBe("failed");
    expect(body.lines).toEqual(expect.arrayContaining(["encoding", "render failed: ffmpeg exited with code 1: Unknown encoder"]));
  });

  it("a node that stops posting lets its lease lapse; after the last attempt the render fails with a line saying why", async () => {
    // A lapsed lease first puts the job back for another node (render-farm.test.ts); the third lapse ends it.
    const key = await registerNode();
    const s = await signIn("render-lease");
    await createProject(s.token, "Lapse");
    const state = await json<State>(await api(s.token, "POST", "/api/projects/lapse/render", {}));
    const room = env.PROJECT_ROOM.get(env.PROJECT_ROOM.idFromName(`${s.userId}/lapse`));
    for (let attempt = 0; attempt < 3; attempt++) {
      await claim(key);
      await env.DB.prepare("UPDATE jobs SET lease_expires_at = ? WHERE id = ?").bind(Date.now() - 1, state.id).run();
      await runDurableObjectAlarm(room);
    }
    const after = await renderState(s.token, "lapse");
    expect(after.status).toBe("failed");
    expect(after.lastLine).toMatch(/render node test-node stopped responding on the last attempt/);
  });

  it("deleting the project stops its render", async () => {
    const key = await registerNode();
    const s = await signIn("render-delete");
    await createProject(s.token, "Doomed");
    const state = await json<State>(await api(s.token, "POST", "/api/projects/doomed/render", {}));
    await claim(key);
    expect((await api(s.token, "DELETE", "/api/projects/doomed")).status).toBe(200);
    expect(await (await nodeCall(key, "POST", `/jobs/${state.id}/progress`, { lines: ["x"] })).json()).toEqual({ cancelled: true });
    const job = await env.DB.prepare("SELECT status FROM jobs WHERE id = ?").bind(state.id).first<{ status: string }>();
    expect(job?.status).toBe("cancelled");
  });

  it("node endpoints take only node keys", async () => {
    const s = await signIn("render-not-node");
    const res = await nodeCall(s.token, "POST", "/jobs/claim?wait=0", {});
    expect(res.status).toBe(401);
    expect((await json<{ error: string }>(res)).error).toMatch(/^unauthorized: /);
  });
});
