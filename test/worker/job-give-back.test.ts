// A node that is stopping (SIGTERM: a container stopped, a deploy) gives its job back (POST /api/node/jobs/:id/release)
// and the job is queued again at once, not a lease later: another node takes a render over straight away, and a
// snapshot's request, still waiting, gets its 200 from the other node. Only the holder of the job, in the attempt
// it claimed, can give it back. A given-back snapshot no other node finishes in time is a retryable 503, not a 504.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { JOB_ATTEMPT_HEADER } from "../../core/protocol/node-routes.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { awaitJob, claim, claimKind, nodeCall, registerNode } from "./node-helpers.ts";
import { finishWithFile, jobRow, renderState, startRender } from "./render-farm-helpers.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const attempt = (n: number) => ({ [JOB_ATTEMPT_HEADER]: String(n) });
const release = (key: string, id: string, n: number) => nodeCall(key, "POST", `/jobs/${id}/release`, { reason: "SIGTERM" }, attempt(n));
/** A node (counted available) that claimed the browser job a user's request just queued; the request is pending. */
async function claimedBrowserJob(nodeName: string, user: string, project: string, kind: "snapshot" | "preview") {
  const key = await registerNode(nodeName);
  await claimKind(key, "check"); // the node has asked for work: it counts as available
  const s = await signIn(user);
  await createProject(s.token, project);
  const slug = project.toLowerCase().replaceAll(" ", "-");
  const pending = api(s.token, "POST", `/api/projects/${slug}/${kind}`, kind === "snapshot" ? {} : undefined);
  return { key, pending, job: await awaitJob(key, kind) };
}
const leaseOf = (id: string) => env.DB.prepare("SELECT lease_expires_at AS lease FROM jobs WHERE id = ?").bind(id).first<{ lease: number | null }>();

describe("a render given back by its stopping node", () => {
  it("is queued again at once (its lease far from lapsed) and another node takes it over; the log says it was given back", async () => {
    const a = await registerNode("node-a");
    const b = await registerNode("node-b");
    while (await claim(b)); // earlier tests' queued renders (storage is shared within this file)
    const { s, state } = await startRender("give-back-render", "give-back");
    expect((await claim(a))?.attempt).toBe(1);
    expect(await json(await nodeCall(a, "POST", `/jobs/${state.id}/progress`, { lines: ["frame 3/30"] }, attempt(1)))).toEqual({ cancelled: false });
    // The lease is the default 30 s and nobody lapses it or runs the watchdog: only the give-back frees the job.
    expect((await leaseOf(state.id))!.lease! - Date.now()).toBeGreaterThan(20_000);
    expect(await claim(b)).toBeNull();

    expect(await json(await release(a, state.id, 1))).toEqual({ released: true });
    const queued = await renderState(s.token, "give-back");
    expect(queued.status).toBe("queued");
    expect(queued.lines).toContain("render: node node-a gave it back (the node is stopping; attempt 1 of 3); queued again for another node");
    const again = await claim(b);
    expect(again).toMatchObject({ id: state.id, attempt: 2 });
    expect((await renderState(s.token, "give-back")).lines).toContain("render node node-b took the render over (attempt 2 of 3)");

    // The stopping node's late calls are a stranger's; giving it back twice changes nothing.
    expect((await release(a, state.id, 1)).status).toBe(404);
    expect(await json(await nodeCall(a, "POST", `/jobs/${state.id}/progress`, { lines: ["late"] }, attempt(1)))).toEqual({ cancelled: true });
    expect(await json(await finishWithFile(b, state.id, new Uint8Array(64), attempt(2)))).toEqual({ ok: true });
    expect(await renderState(s.token, "give-back")).toMatchObject({ status: "done", size: 64 });
    expect(await jobRow(state.id)).toMatchObject({ status: "done", attempts: 2 });
  }, 20_000);

  it("only the process holding it in the attempt it claimed can give it back (one key, two container instances)", async () => {
    const key = await registerNode("local");
    while (await claim(key));
    const { s, state } = await startRender("give-back-shared", "give-back-shared");
    expect((await claim(key))?.attempt).toBe(1);
    expect(await json(await release(key, state.id, 1))).toEqual({ released: true });
    expect((await claim(key))?.attempt).toBe(2);
    // The first instance, stopping, tries again: the job is the second instance's now.
    expect((await release(key, state.id, 1)).status).toBe(404);
    expect(await renderState(s.token, "give-back-shared")).toMatchObject({ status: "rendering" });
    // A key that never held it.
    expect((await release(await registerNode("stranger"), state.id, 2)).status).toBe(404);
  }, 20_000);

  it("on the last attempt the render fails, saying its node was stopped", async () => {
    const key = await registerNode("stopped-thrice");
    while (await claim(key));
    const { s, state } = await startRender("give-back-last", "give-back-last");
    for (let n = 1; n <= 3; n++) {
      expect((await claim(key))?.attempt).toBe(n);
      expect(await json(await release(key, state.id, n))).toEqual({ released: true });
    }
    const failed = await renderState(s.token, "give-back-last");
    expect(failed.status).toBe("failed");
    expect(failed.lastLine).toBe("render failed: render node stopped-thrice was stopped on the last attempt (3 of 3); the render was given up");
  }, 20_000);
});

describe("a snapshot given back by its stopping node", () => {
  it("is taken by another node at once and the waiting request answers 200", async () => {
    const b = await registerNode("snap-b");
    const { key: a, pending, job } = await claimedBrowserJob("snap-a", "give-back-snap", "Snap back", "snapshot");
    expect(await json(await release(a, job.id, 1))).toEqual({ released: true });
    const again = await claimKind(b, "snapshot");
    expect(again).toMatchObject({ id: job.id, attempt: 2 });
    expect((await nodeCall(b, "PUT", `/jobs/${job.id}/files/snapshots/contact-sheet.png`, PNG, { "Content-Type": "image/png", ...attempt(2) })).status).toBe(200);
    await nodeCall(b, "POST", `/jobs/${job.id}/complete`, { ok: true, result: { snapshots: [{ path: "snapshots/contact-sheet.png" }], log: ["captured"] } }, attempt(2));
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ ok: true, snapshots: [{ path: "snapshots/contact-sheet.png", size: PNG.length }] });
  }, 20_000);

  it("that no other node picks up within the request's bound is a 503 saying to try again (Retry-After), not a 504", async () => {
    const { key: a, pending, job } = await claimedBrowserJob("snap-lonely", "give-back-lonely", "Lonely", "snapshot");
    expect(await json(await release(a, job.id, 1))).toEqual({ released: true });
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("10");
    expect((await json<{ error: string }>(res)).error).toBe(
      "the render node running the snapshot was stopped and gave it back, and no other node finished it within 4 s; nothing is wrong with the request: try again",
    );
    expect(await jobRow(job.id)).toMatchObject({ status: "cancelled" });
  }, 20_000);

  it("a preview is not given back (it lives on its node): 400", async () => {
    const { key: a, job } = await claimedBrowserJob("preview-node", "give-back-preview", "Kept", "preview");
    expect((await release(a, job.id, 1)).status).toBe(400);
    expect(await jobRow(job.id)).toMatchObject({ status: "running" });
    await nodeCall(a, "POST", `/jobs/${job.id}/complete`, { ok: true }, attempt(1));
  }, 20_000);
});
