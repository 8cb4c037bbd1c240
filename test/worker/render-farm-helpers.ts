// What the render tests share: a project's render started by a fresh user, its room, its state and job rows,
// a lease lapsed by hand, and a node finishing a job with an uploaded file (with progress first: completeJob).
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, nodeCall, parkIdleNodes, registerNode, type ClaimedJob } from "./node-helpers.ts";

export type State = Record<string, unknown> & { id: string; status: string; filename: string; downloadUrl: string | null; lines?: string[]; segments?: { status: string }[] | null };

export const roomStub = (userId: string, slug: string) => env.PROJECT_ROOM.get(env.PROJECT_ROOM.idFromName(`${userId}/${slug}`));
export const renderState = async (token: string, slug: string) => json<State>(await api(token, "GET", `/api/projects/${slug}/render`));
export const jobRow = (id: string) => env.DB.prepare("SELECT status, attempts, node_id FROM jobs WHERE id = ?").bind(id).first<{ status: string; attempts: number; node_id: string | null }>();
export const lapse = (id: string) => env.DB.prepare("UPDATE jobs SET lease_expires_at = ? WHERE id = ?").bind(Date.now() - 1, id).run();
export const listed = async (token: string) => (await json<{ renders: { filename: string }[] }>(await api(token, "GET", "/api/renders"))).renders.map((r) => r.filename);

export async function startRender(name: string, slug: string) {
  const s = await signIn(name);
  await createProject(s.token, slug);
  const state = await json<State>(await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft" }));
  return { s, state, room: roomStub(s.userId, slug) };
}

/** Uploads the output and completes the job; `headers` as the node sends them (e.g. the attempt it claimed). */
export async function finishWithFile(key: string, id: string, bytes = new Uint8Array(64), headers: Record<string, string> = {}) {
  expect((await nodeCall(key, "PUT", `/jobs/${id}/output`, bytes, headers)).status).toBe(200);
  return nodeCall(key, "POST", `/jobs/${id}/complete`, { ok: true }, headers);
}

/** Drives a claimed job to a finished file, as a render node does: progress, the output, the completion. */
export async function completeJob(key: string, jobId: string, bytes: Uint8Array) {
  await nodeCall(key, "POST", `/jobs/${jobId}/progress`, {
    lines: ["capturing", "frame 90/180 (50%), 12.0 fps, ETA 7 s"],
    progress: { frame: 90, total: 180, fps: 12, stage: "capturing", etaSeconds: 7 },
  });
  const up = await nodeCall(key, "PUT", `/jobs/${jobId}/output`, bytes, { "Content-Type": "video/mp4" });
  expect(await up.json()).toEqual({ ok: true, size: bytes.length });
  return nodeCall(key, "POST", `/jobs/${jobId}/complete`, { ok: true });
}

/** A render plan of `frames` at 30 fps, 1080p, no audio, as a node posts it. */
export const plan30 = (frames: number) => ({
  composition: "index.html", frames, fps: { num: 30, den: 1 }, fpsText: "30", durationSeconds: frames / 30,
  width: 1920, height: 1080, audio: [], findings: [],
});

/**
 * A fresh user's render split in three: node `<name>-a` claims and plans 900 frames while two processes of node
 * `<name>-b` wait for work, and take the first two segments (`segment` is one of them, held by `b`).
 */
export async function splitRender(name: string) {
  const [a, b] = [await registerNode(`${name}-a`), await registerNode(`${name}-b`)];
  const { s, state } = await startRender(name, name);
  while ((await claim(a))?.id !== state.id); // other tests' renders may be queued too
  const parked = await parkIdleNodes(b, ["p", "q"]);
  expect((await json<{ segments: unknown[] }>(await nodeCall(a, "POST", `/jobs/${state.id}/plan`, { plan: plan30(900) }))).segments).toHaveLength(3);
  const [segment] = await Promise.all(parked);
  return { s, state, b, segment: segment as ClaimedJob };
}
