// A snapshot nobody waits on: POST …/snapshot with "wait": false answers 202 with the queued job at once (snapshots/
// cleared all the same), GET …/snapshot/:id follows it (queued, running with its stage, done with the frames the
// waiting call answers) and DELETE cancels it (the node hears it on its next post; an ended one is a 409). Each GET
// does what a waiting call does on each read: a lapsed lease goes back to the queue, a job nobody picks up or whose
// node died on its last attempt is given up naming the stage, one its stopping node gave back and no other node took is
// given up past the overall bound saying so. The frames are announced to the project's stream once,
// when the node completes. A node is played over the real protocol; vitest.config.ts sets the short timeouts
// (pickup 1.5 s, overall 4 s).
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { api, BASE, createProject, json, signIn } from "./helpers.ts";
import { JOB_ATTEMPT_HEADER } from "../../core/protocol/node-routes.ts";
import { awaitJob, claimKind, nodeCall, registerNode, sseReader } from "./node-helpers.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

interface SnapshotJob {
  id: string;
  status: string;
  stage: string | null;
  error: string | null;
  snapshots: { path: string; size: number; url: string }[];
  log: string[];
}

let key = "";
beforeEach(async () => {
  key = await registerNode();
  await claimKind(key, "check"); // the node has asked for work: it counts as available
});

async function startUnwaited(user: string, project: string) {
  const s = await signIn(user);
  await createProject(s.token, project, { duration: 4 });
  const slug = project.toLowerCase().replaceAll(" ", "-");
  const res = await api(s.token, "POST", `/api/projects/${slug}/snapshot`, { at: [1], end: false, wait: false });
  return { s, slug, res };
}

const read = async (token: string, slug: string, id: string) => json<SnapshotJob>(await api(token, "GET", `/api/projects/${slug}/snapshot/${id}`));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a snapshot that is not waited for", () => {
  it("answers 202 at once, is followed by GET to its frames, hidden from others, and announced once", async () => {
    const s = await signIn("snapjob-follow");
    await createProject(s.token, "Follow", { duration: 4 });
    const events = sseReader(await api(s.token, "GET", "/api/projects/follow/events"));
    expect((await events.next()).event).toBe("render");
    await api(s.token, "PUT", "/api/projects/follow/files/snapshots/old.png", "stale");
    expect(await events.next()).toEqual({ event: "files", data: { written: ["snapshots/old.png"], deleted: [] } });

    const res = await api(s.token, "POST", "/api/projects/follow/snapshot", { at: [1, 2], end: false, wait: false });
    expect(res.status).toBe(202);
    const queued = await json<SnapshotJob>(res);
    expect(queued).toMatchObject({ status: "queued", stage: null, error: null, snapshots: [], log: [] });
    expect(res.headers.get("Location")).toBe(`/api/projects/follow/snapshot/${queued.id}`);
    // Cleared as the waiting call clears it, before the job exists.
    expect((await api(s.token, "GET", "/api/projects/follow/files/snapshots/old.png")).status).toBe(404);
    expect(await read(s.token, "follow", queued.id)).toMatchObject({ id: queued.id, status: "queued" });

    const job = await awaitJob(key, "snapshot");
    expect(job).toMatchObject({ id: queued.id, options: { at: [1, 2], end: false } });
    // The node never sees the caller's wait.
    expect(job.options).not.toHaveProperty("wait");
    await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: ["capturing frame 1/2"], stage: "capturing frame 1/2" });
    expect(await read(s.token, "follow", job.id)).toMatchObject({ status: "running", stage: "capturing frame 1/2" });

    // Another user, another project, a made-up id: a 404 that tells nothing.
    const other = await signIn("snapjob-other");
    await createProject(other.token, "Follow");
    for (const [token, path] of [
      [other.token, `/api/projects/follow/snapshot/${job.id}`],
      [s.token, `/api/projects/other/snapshot/${job.id}`],
      [s.token, `/api/projects/follow/snapshot/${crypto.randomUUID()}`],
      [s.token, "/api/projects/follow/snapshot/nope"],
    ] as const) {
      const missing = await api(token, "GET", path);
      expect(missing.status, path).toBe(404);
      expect((await json<{ error: string }>(missing)).error).toMatch(/^no (snapshot with id|project named)/);
      expect((await api(token, "DELETE", path)).status, path).toBe(404);
    }

    for (const path of ["snapshots/frame-01-1.000s.png", "snapshots/contact-sheet.png"]) {
      expect((await nodeCall(key, "PUT", `/jobs/${job.id}/files/${path}`, PNG, { "Content-Type": "image/png" })).status).toBe(200);
    }
    await nodeCall(key, "POST", `/jobs/${job.id}/complete`, {
      ok: true,
      result: { snapshots: [{ path: "snapshots/frame-01-1.000s.png" }, { path: "snapshots/contact-sheet.png" }], log: ["loaded", "captured"] },
    });
    const done = await read(s.token, "follow", job.id);
    expect(done).toMatchObject({
      status: "done",
      error: null,
      snapshots: [
        { path: "snapshots/frame-01-1.000s.png", size: PNG.length, url: `${BASE}/api/projects/follow/files/snapshots/frame-01-1.000s.png` },
        { path: "snapshots/contact-sheet.png", size: PNG.length, url: `${BASE}/api/projects/follow/files/snapshots/contact-sheet.png` },
      ],
      log: ["loaded", "captured"],
    });
    expect(await read(s.token, "follow", job.id)).toEqual(done);
    const frame = await api(s.token, "GET", done.snapshots[0]!.url.slice(BASE.length));
    expect(new Uint8Array(await frame.arrayBuffer())).toEqual(PNG);

    // The frames reached the project's stream when the node completed, once however often the job is read: the
    // next files event is the marker written after the reads.
    expect(await events.next()).toEqual({ event: "files", data: { written: ["snapshots/frame-01-1.000s.png", "snapshots/contact-sheet.png"], deleted: [] } });
    await api(s.token, "PUT", "/api/projects/follow/files/marker.txt", "after");
    expect(await events.next()).toEqual({ event: "files", data: { written: ["marker.txt"], deleted: [] } });
    await events.cancel();

    // An ended snapshot cannot be cancelled.
    const late = await api(s.token, "DELETE", `/api/projects/follow/snapshot/${job.id}`);
    expect(late.status).toBe(409);
    expect((await json<{ error: string }>(late)).error).toBe("the snapshot already ended (done)");
  }, 20_000);

  it("a failed one reads as failed with the node's error and log", async () => {
    const { s, slug, res } = await startUnwaited("snapjob-fail", "Fails");
    const { id } = await json<SnapshotJob>(res);
    const job = await awaitJob(key, "snapshot");
    await nodeCall(key, "POST", `/jobs/${job.id}/complete`, { ok: false, error: "composition has no root", result: { snapshots: [], log: ["loading"] } });
    expect(await read(s.token, slug, id)).toMatchObject({ status: "failed", error: "composition has no root", snapshots: [], log: ["loading"] });
  });

  it("DELETE cancels a queued or running one, and its node hears it on its next post", async () => {
    const queued = await startUnwaited("snapjob-cancel", "Cancel queued");
    const first = await json<SnapshotJob>(queued.res);
    const cancelled = await api(queued.s.token, "DELETE", `/api/projects/${queued.slug}/snapshot/${first.id}`);
    expect(cancelled.status).toBe(200);
    expect(await json(cancelled)).toMatchObject({ id: first.id, status: "cancelled", error: "cancelled by its owner" });
    expect(await claimKind(key, "snapshot")).toBeNull();

    const res = await api(queued.s.token, "POST", `/api/projects/${queued.slug}/snapshot`, { wait: false });
    const second = await json<SnapshotJob>(res);
    const job = await awaitJob(key, "snapshot");
    expect(job.id).toBe(second.id);
    expect(await json(await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: [], stage: "loading" }))).toEqual({ cancelled: false });
    expect(await json(await api(queued.s.token, "DELETE", `/api/projects/${queued.slug}/snapshot/${job.id}`))).toMatchObject({ status: "cancelled" });
    expect(await json(await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: [] }))).toEqual({ cancelled: true });
    expect((await api(queued.s.token, "DELETE", `/api/projects/${queued.slug}/snapshot/${job.id}`)).status).toBe(409);
  });

  it("one nobody picks up is given up on its next read, naming the stage", async () => {
    const { s, slug, res } = await startUnwaited("snapjob-pickup", "Unpicked");
    const { id } = await json<SnapshotJob>(res);
    expect(await read(s.token, slug, id)).toMatchObject({ status: "queued" });
    await sleep(1700);
    expect(await read(s.token, slug, id)).toMatchObject({ status: "cancelled", error: "no render node picked the snapshot up within 2 s (stage: queued)" });
    // Nothing is left for a node to take.
    expect(await claimKind(key, "snapshot")).toBeNull();
  }, 20_000);

  it("one whose node goes silent goes back to the queue for another node; on its last attempt it is given up", async () => {
    const { s, slug, res } = await startUnwaited("snapjob-lapse", "Lapsed");
    const { id } = await json<SnapshotJob>(res);
    // Its node goes silent: the lease lapses. The overall bound is 4 s here; the test's own pace under load must not
    // use it up, so the job counts as just queued each time.
    const lapse = () => env.DB.prepare("UPDATE jobs SET lease_expires_at = ?, created_at = ? WHERE id = ?").bind(Date.now() - 1, Date.now(), id).run();
    const other = await registerNode("snapjob-other-node");
    for (const [n, node] of [[1, key], [2, other]] as const) {
      expect(await awaitJob(node, "snapshot")).toMatchObject({ id, attempt: n });
      await nodeCall(node, "POST", `/jobs/${id}/progress`, { lines: [], stage: `capturing on try ${n}` });
      await lapse();
      expect(await read(s.token, slug, id)).toMatchObject({ status: "queued" });
    }
    expect(await awaitJob(key, "snapshot")).toMatchObject({ id, attempt: 3 });
    await nodeCall(key, "POST", `/jobs/${id}/progress`, { lines: [], stage: "capturing frame 1/1 at 1 s" });
    await lapse();
    expect(await read(s.token, slug, id)).toMatchObject({ status: "cancelled", error: "the render node stopped responding during the snapshot (stage: capturing frame 1/1 at 1 s)" });
    expect(await json(await nodeCall(key, "POST", `/jobs/${id}/progress`, { lines: [] }))).toEqual({ cancelled: true });
  }, 20_000);

  it("one its stopping node gave back that no other node takes is given up within the overall bound, saying so", async () => {
    const { s, slug, res } = await startUnwaited("snapjob-given-back", "Given back");
    const { id } = await json<SnapshotJob>(res);
    expect(await awaitJob(key, "snapshot")).toMatchObject({ id, attempt: 1 });
    expect(await json(await nodeCall(key, "POST", `/jobs/${id}/release`, { reason: "SIGTERM" }, { [JOB_ATTEMPT_HEADER]: "1" }))).toEqual({ released: true });
    expect(await read(s.token, slug, id)).toMatchObject({ status: "queued", stage: "given back by its node (SIGTERM)" });
    // No other node: past the overall bound (4 s here) the next read gives it up as a waiting call would (its 503).
    await sleep(4200);
    expect(await read(s.token, slug, id)).toMatchObject({
      status: "cancelled",
      error: "the render node running the snapshot was stopped and gave it back, and no other node finished it within 4 s",
    });
    expect(await claimKind(key, "snapshot")).toBeNull();
  }, 20_000);
});
