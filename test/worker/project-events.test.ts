// GET /api/projects/:slug/events: the project's own stream. It opens with a `render` event (the current or last
// render); a file written or deleted by any caller arrives as a `files` event naming the paths, and a render started
// through the API (or anywhere) as a `render` event at its start and at its end; other people's projects and
// anonymous callers get nothing but their 404/401.
import { describe, expect, it } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { awaitJob, nodeCall, registerNode, sseReader } from "./node-helpers.ts";

describe("project event stream", () => {
  it("announces written and deleted files, in order, to every open stream", async () => {
    const { token } = await signIn("events-owner");
    const { slug } = await createProject(token, "Events Clip");
    const res = await api(token, "GET", `/api/projects/${slug}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const second = sseReader(await api(null, "GET", `/api/projects/${slug}/events?token=${token}`));
    const events = sseReader(res);
    expect(await events.next()).toEqual({ event: "render", data: { status: "none" } });
    expect((await second.next()).event).toBe("render");
    expect((await api(token, "PUT", `/api/projects/${slug}/files/notes/a.txt`, "hello")).status).toBe(200);
    expect(await events.next()).toEqual({ event: "files", data: { written: ["notes/a.txt"], deleted: [] } });
    expect((await api(token, "DELETE", `/api/projects/${slug}/files/notes/a.txt`)).status).toBe(200);
    expect(await events.next()).toEqual({ event: "files", data: { written: [], deleted: ["notes/a.txt"] } });
    expect((await second.next()).data).toEqual({ written: ["notes/a.txt"], deleted: [] });
    await events.cancel();
    await second.cancel();
  });

  it("announces a render started through the API at its start and its end, and opens with the current render", async () => {
    const key = await registerNode();
    const { token } = await signIn("events-render");
    const { slug } = await createProject(token, "Events Render");
    const events = sseReader(await api(token, "GET", `/api/projects/${slug}/events`));
    expect(await events.next()).toEqual({ event: "render", data: { status: "none" } });

    const post = await api(token, "POST", `/api/projects/${slug}/render`, { quality: "draft" });
    expect(post.status).toBe(202);
    const started = await json<{ id: string; filename: string }>(post);
    const start = await events.next();
    expect(start.event).toBe("render");
    expect(start.data).toMatchObject({ id: started.id, slug, status: "queued", filename: started.filename, downloadUrl: null });
    expect(start.data.lines).toBeUndefined();

    // A page that connects now (or reconnects) learns of the render in progress from the stream's first event.
    const late = sseReader(await api(token, "GET", `/api/projects/${slug}/events`));
    expect(await late.next()).toMatchObject({ event: "render", data: { id: started.id, status: "queued" } });

    const job = await awaitJob(key, "render");
    expect(job.id).toBe(started.id);
    await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: ["frame 1/2 (50%)"], progress: { frame: 1, total: 2, stage: "capturing" } });
    const bytes = new Uint8Array(500).map((_, i) => i % 251);
    expect((await nodeCall(key, "PUT", `/jobs/${job.id}/output`, bytes, { "Content-Type": "video/mp4" })).status).toBe(200);
    expect((await nodeCall(key, "POST", `/jobs/${job.id}/complete`, { ok: true })).status).toBe(200);
    // Progress lines stay on the render's own stream: the next project event is the end, with the download.
    const end = await events.next();
    expect(end).toMatchObject({ event: "render", data: { id: started.id, status: "done", downloadUrl: `/renders/${started.filename}`, size: 500 } });
    expect((await late.next()).data).toMatchObject({ id: started.id, status: "done" });
    const reopened = sseReader(await api(token, "GET", `/api/projects/${slug}/events`));
    expect(await reopened.next()).toMatchObject({ event: "render", data: { id: started.id, status: "done", downloadUrl: `/renders/${started.filename}` } });
    for (const stream of [events, late, reopened]) await stream.cancel();
  });

  it("is 401 without a caller and 404 for someone else's project or one that does not exist", async () => {
    const owner = await signIn("events-a");
    const stranger = await signIn("events-b");
    const { slug } = await createProject(owner.token, "Private Events");
    expect((await api(null, "GET", `/api/projects/${slug}/events`)).status).toBe(401);
    const theirs = await api(stranger.token, "GET", `/api/projects/${slug}/events`);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual({ error: expect.any(String), code: "not_found" });
    expect((await api(owner.token, "GET", "/api/projects/no-such-project/events")).status).toBe(404);
  });
});
