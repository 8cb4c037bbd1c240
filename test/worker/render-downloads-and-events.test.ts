// A render seen from outside, a node played by the test: downloads (CORS, Range, HEAD, errors) and downloadUrl
// agreeing with the render list wherever it shows, also after a file is deleted; the render's event stream in order,
// a late subscriber's snapshot, other users' 404s. The render's life itself: render.test.ts.
import { describe, expect, it } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, nodeCall, registerNode, sseReader } from "./node-helpers.ts";
import { completeJob, renderState, type State } from "./render-farm-helpers.ts";

describe("downloads: CORS, and downloadUrl agreeing with the render list", () => {
  /** Renders a project to a finished file with the node; returns its state. */
  async function renderDone(key: string, token: string, slug: string, bytes = new Uint8Array(100)) {
    // force: a second render of the same files renders anew (the render cache would answer it with a copy).
    const state = await json<State>(await api(token, "POST", `/api/projects/${slug}/render`, { force: true }));
    const job = await claim(key);
    expect(job?.id).toBe(state.id);
    await completeJob(key, state.id, bytes);
    return state;
  }

  /** Every downloadUrl the API shows for the caller's projects: render state, detail, list, a new event stream. */
  async function shownDownloadUrls(token: string, slugs: string[]) {
    const shown = new Map<string, unknown>();
    for (const slug of slugs) {
      shown.set(`render ${slug}`, (await renderState(token, slug)).downloadUrl);
      const detail = await json<{ project: { render: State | null } }>(await api(token, "GET", `/api/projects/${slug}`));
      shown.set(`detail ${slug}`, detail.project.render?.downloadUrl);
      const events = sseReader(await api(token, "GET", `/api/projects/${slug}/render/events`));
      shown.set(`events ${slug}`, (await events.next()).data.downloadUrl);
      await events.cancel();
    }
    const list = await json<{ projects: { name: string; render: State | null }[] }>(await api(token, "GET", "/api/projects"));
    for (const p of list.projects) shown.set(`list ${p.name}`, p.render?.downloadUrl);
    return shown;
  }

  async function listedUrls(token: string) {
    return (await json<{ renders: { url: string }[] }>(await api(token, "GET", "/api/renders"))).renders.map((r) => r.url);
  }

  it("a preflight needs no token and answers 204; downloads and their errors carry Access-Control-Allow-Origin: *", async () => {
    const key = await registerNode();
    const s = await signIn("render-cors");
    await createProject(s.token, "Shared");
    const state = await renderDone(key, s.token, "shared", new Uint8Array(100).map((_, i) => i));
    const origin = { Origin: "https://tool.example" };
    for (const name of [state.filename, "missing_2026-01-01_00-00-00.mp4"]) {
      const preflight = await api(null, "OPTIONS", `/renders/${name}`, undefined, {
        ...origin,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization, range, x-studio-token",
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
      for (const method of ["GET", "HEAD", "DELETE"]) expect(preflight.headers.get("Access-Control-Allow-Methods")).toContain(method);
      for (const header of ["Authorization", "Range", "X-Studio-Token"]) expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain(header);
    }
    const exposed = (res: Response) => (res.headers.get("Access-Control-Expose-Headers") ?? "").split(/\s*,\s*/);
    const full = await api(s.token, "GET", `/renders/${state.filename}?download`, undefined, origin);
    expect(full.status).toBe(200);
    expect(full.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(exposed(full)).toEqual(expect.arrayContaining(["Content-Range", "Content-Length", "Content-Disposition", "ETag", "Accept-Ranges"]));
    expect((await full.arrayBuffer()).byteLength).toBe(100);
    const part = await api(s.token, "GET", `/renders/${state.filename}`, undefined, { ...origin, Range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(part.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(part.headers.get("Content-Range")).toBe("bytes 0-9/100");
    const head = await api(s.token, "HEAD", `/renders/${state.filename}`, undefined, origin);
    expect(head.status).toBe(200);
    expect(head.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(head.headers.get("Content-Length")).toBe("100");
    // Errors are readable cross-origin too, and a preflight never opened a way around the token.
    for (const res of [await api(null, "GET", `/renders/${state.filename}`, undefined, origin), await api(s.token, "GET", "/renders/missing_2026-01-01_00-00-00.mp4", undefined, origin)]) {
      expect([401, 404]).toContain(res.status);
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(typeof (await json<{ error: string }>(res)).error).toBe("string");
    }
  });

  it("deleting a render's file removes its downloadUrl everywhere; no place shows a downloadUrl the render list lacks", async () => {
    const key = await registerNode();
    const s = await signIn("render-forget");
    await createProject(s.token, "Kept");
    await createProject(s.token, "Forgotten");
    const older = await renderDone(key, s.token, "kept");
    const kept = await renderDone(key, s.token, "kept");
    const forgotten = await renderDone(key, s.token, "forgotten");
    expect([...(await shownDownloadUrls(s.token, ["kept", "forgotten"])).values()].sort()).toEqual(
      [...Array(4).fill(`/renders/${kept.filename}`), ...Array(4).fill(`/renders/${forgotten.filename}`)].sort(),
    );

    // Deleting an older file of a project leaves its latest render's download alone.
    expect((await api(s.token, "DELETE", `/renders/${older.filename}`)).status).toBe(200);
    expect((await renderState(s.token, "kept")).downloadUrl).toBe(`/renders/${kept.filename}`);

    expect(await json(await api(s.token, "DELETE", `/renders/${forgotten.filename}`))).toEqual({ deleted: true, filename: forgotten.filename });
    const listed = await listedUrls(s.token);
    expect(listed).toEqual([`/renders/${kept.filename}`]);
    const shown = await shownDownloadUrls(s.token, ["kept", "forgotten"]);
    for (const [where, url] of shown) {
      if (url !== null && url !== undefined) expect(listed, where).toContain(url);
    }
    for (const where of ["render forgotten", "detail forgotten", "events forgotten", "list forgotten"]) expect(shown.get(where), where).toBeNull();
    // The render itself is still the project's last one: done, its file name kept for the record.
    expect(await renderState(s.token, "forgotten")).toMatchObject({ status: "done", filename: forgotten.filename, downloadUrl: null });
    expect((await api(s.token, "GET", `/renders/${forgotten.filename}`)).status).toBe(404);
  });

  it("a render that is not done has no downloadUrl and is not in the list", async () => {
    const key = await registerNode();
    const s = await signIn("render-notdone");
    await createProject(s.token, "Failing");
    const state = await json<State>(await api(s.token, "POST", "/api/projects/failing/render", {}));
    await claim(key);
    const up = await nodeCall(key, "PUT", `/jobs/${state.id}/output`, new Uint8Array(10));
    expect(up.status).toBe(200);
    await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: false, error: "encoder crashed" });
    expect(await listedUrls(s.token)).toEqual([]);
    for (const [where, url] of await shownDownloadUrls(s.token, ["failing"])) expect(url, where).toBeNull();
  });
});

describe("render events", () => {
  it("sends snapshot first, then start, line and end; a late subscriber's snapshot has the log so far", async () => {
    const key = await registerNode();
    const s = await signIn("render-sse");
    await createProject(s.token, "Streamed");
    const res = await api(null, "GET", `/api/projects/streamed/render/events?token=${s.token}`);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const early = sseReader(res);
    expect(await early.next()).toEqual({ event: "snapshot", data: { status: "none", recent: [] }, id: 0 });

    const state = await json<State>(await api(s.token, "POST", "/api/projects/streamed/render", {}));
    const start = await early.next();
    expect(start.event).toBe("start");
    expect(start.data).toMatchObject({ id: state.id, status: "queued" });
    expect((await early.next()).data.line).toMatch(/^render queued/);

    await claim(key);
    expect((await early.next()).data).toMatchObject({ line: "render node test-node started the render", status: "rendering" });
    // Progress is the structured field; a line that merely looks like progress is only a log line.
    await nodeCall(key, "POST", `/jobs/${state.id}/progress`, { lines: ["frame 5/6 (83%)"] });
    expect((await early.next()).data).toMatchObject({ line: "frame 5/6 (83%)", progress: null });
    await nodeCall(key, "POST", `/jobs/${state.id}/progress`, {
      lines: ["frame 3/6 (50%), 10.0 fps, ETA 0.3 s"],
      progress: { frame: 3, total: 6, fps: 10, stage: "capturing", etaSeconds: 0.3 },
    });
    expect((await early.next()).data).toMatchObject({
      line: "frame 3/6 (50%), 10.0 fps, ETA 0.3 s",
      progress: { frame: 3, total: 6, percent: 50, fps: 10, stage: "capturing", etaSeconds: 0.3 },
    });
    const bad = await nodeCall(key, "POST", `/jobs/${state.id}/progress`, { lines: [], progress: { frame: 7, total: 6, fps: 1, stage: "capturing", etaSeconds: 0 } });
    expect(bad.status).toBe(400);

    const late = sseReader(await api(s.token, "GET", "/api/projects/streamed/render/events"));
    const snap = await late.next();
    expect(snap.event).toBe("snapshot");
    expect(snap.data).toMatchObject({ id: state.id, status: "rendering" });
    expect(snap.data.lines).toEqual(expect.arrayContaining(["frame 3/6 (50%), 10.0 fps, ETA 0.3 s"]));

    await nodeCall(key, "PUT", `/jobs/${state.id}/output`, new Uint8Array(5));
    await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: true });
    for (const reader of [early, late]) {
      let next = await reader.next();
      while (next.event === "line") next = await reader.next();
      expect(next.event).toBe("end");
      expect(next.data).toMatchObject({ status: "done", downloadUrl: `/renders/${state.filename}` });
      await reader.cancel();
    }
  });

  it("another user's event stream and render state answer 404", async () => {
    const owner = await signIn("sse-owner");
    await createProject(owner.token, "Private Render");
    const other = await signIn("sse-other");
    expect((await api(other.token, "GET", "/api/projects/private-render/render/events")).status).toBe(404);
    expect((await api(other.token, "GET", "/api/projects/private-render/render")).status).toBe(404);
    expect((await api(other.token, "POST", "/api/projects/private-render/render", {})).status).toBe(404);
  });
});
