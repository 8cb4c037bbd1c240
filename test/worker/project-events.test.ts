// GET /api/projects/:slug/events: the project's own stream. A file written or deleted by any caller arrives as a
// `files` event naming the paths; other people's projects and anonymous callers get nothing but their 404/401.
import { describe, expect, it } from "vitest";
import { api, createProject, signIn } from "./helpers.ts";
import { sseReader } from "./node-helpers.ts";

describe("project event stream", () => {
  it("announces written and deleted files, in order, to every open stream", async () => {
    const { token } = await signIn("events-owner");
    const { slug } = await createProject(token, "Events Clip");
    const res = await api(token, "GET", `/api/projects/${slug}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const second = sseReader(await api(null, "GET", `/api/projects/${slug}/events?token=${token}`));
    const events = sseReader(res);
    expect((await api(token, "PUT", `/api/projects/${slug}/files/notes/a.txt`, "hello")).status).toBe(200);
    expect(await events.next()).toEqual({ event: "files", data: { written: ["notes/a.txt"], deleted: [] } });
    expect((await api(token, "DELETE", `/api/projects/${slug}/files/notes/a.txt`)).status).toBe(200);
    expect(await events.next()).toEqual({ event: "files", data: { written: [], deleted: ["notes/a.txt"] } });
    expect((await second.next()).data).toEqual({ written: ["notes/a.txt"], deleted: [] });
    await events.cancel();
    await second.cancel();
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
