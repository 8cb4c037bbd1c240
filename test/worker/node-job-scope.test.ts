// A node key reads a user's project only through a job it holds right now: running, claimed by that node, and
// only that job's project. Once the job is done, failed, cancelled or lost (its lease lapsed and the room put it
// back for another node), and for another node's job, the node's file list, file reads and segment reads answer
// 404 "no such job held by this node", exactly as for a job that does not exist.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, nodeCall, registerNode, type ClaimedJob } from "./node-helpers.ts";

const SECRET = "only the render may read this";

/** A user with a project holding a private file and a queued render of it. */
async function queuedRender(name: string) {
  const s = await signIn(name);
  const slug = (await createProject(s.token, `Private ${name}`)).slug;
  expect((await api(s.token, "PUT", `/api/projects/${slug}/files/assets/secret.txt`, SECRET)).status).toBe(200);
  const render = await json<{ id: string }>(await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft" }));
  return { s, slug, renderId: render.id, room: env.PROJECT_ROOM.get(env.PROJECT_ROOM.idFromName(`${s.userId}/${slug}`)) };
}

/** Claims until this render's job comes up (other queued renders are left to their leases). */
async function claimRender(key: string, renderId: string): Promise<ClaimedJob> {
  for (let job = await claim(key); job; job = await claim(key)) if (job.id === renderId) return job;
  throw new Error("the render was never claimed");
}

/** What the node gets when it reads the job's file list and the private file. */
async function reads(key: string, jobId: string) {
  const list = await nodeCall(key, "GET", `/jobs/${jobId}/files`);
  const file = await nodeCall(key, "GET", `/jobs/${jobId}/files/assets/secret.txt`);
  return { list: list.status, file: file.status, body: await file.text() };
}

const REFUSED = { list: 404, file: 404, body: JSON.stringify({ error: "no such job held by this node", code: "not_found" }) };

describe("node keys read only what a job they hold now needs", () => {
  it("reads its running job's files, and nothing once the job is done", async () => {
    const node = await registerNode("scope-done");
    const { renderId } = await queuedRender("scope-done");
    expect(await reads(node, renderId)).toMatchObject({ list: 404, file: 404 }); // queued: not claimed yet
    await claimRender(node, renderId);
    expect(await reads(node, renderId)).toEqual({ list: 200, file: 200, body: SECRET });
    expect((await nodeCall(node, "PUT", `/jobs/${renderId}/output`, new Uint8Array(64))).status).toBe(200);
    expect((await nodeCall(node, "POST", `/jobs/${renderId}/complete`, { ok: true })).status).toBe(200);
    expect(await reads(node, renderId)).toMatchObject(REFUSED);
  });

  it("nothing once the job failed or was cancelled", async () => {
    const node = await registerNode("scope-failed");
    const failed = await queuedRender("scope-failed");
    await claimRender(node, failed.renderId);
    expect((await nodeCall(node, "POST", `/jobs/${failed.renderId}/complete`, { ok: false, error: "boom" })).status).toBe(200);
    expect(await reads(node, failed.renderId)).toMatchObject(REFUSED);

    const cancelled = await queuedRender("scope-cancelled");
    await claimRender(node, cancelled.renderId);
    expect((await api(cancelled.s.token, "DELETE", `/api/projects/${cancelled.slug}/render`)).status).toBe(200);
    expect(await reads(node, cancelled.renderId)).toMatchObject(REFUSED);
  });

  it("nothing once its lease lapsed and the job went to another node, which reads it; neither reads the other's", async () => {
    const a = await registerNode("scope-lost-a");
    const b = await registerNode("scope-lost-b");
    const { renderId, room } = await queuedRender("scope-lost");
    await claimRender(a, renderId);
    // Another node never reads a job it does not hold.
    expect(await reads(b, renderId)).toMatchObject(REFUSED);
    await env.DB.prepare("UPDATE jobs SET lease_expires_at = ? WHERE id = ?").bind(Date.now() - 1, renderId).run();
    await runDurableObjectAlarm(room);
    expect(await reads(a, renderId)).toMatchObject(REFUSED);
    await claimRender(b, renderId);
    expect(await reads(b, renderId)).toEqual({ list: 200, file: 200, body: SECRET });
    expect(await reads(a, renderId)).toMatchObject(REFUSED);
  });
});
