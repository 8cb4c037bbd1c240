// What a render node reports on a whole render, as its ProjectRoom takes it: log lines and progress (prefixed by
// segment on a split render), the claim (the render is now rendering, on which attempt), and the completion of the
// render or join job, whose outcome the room decides. Segment jobs are split-render.ts.
import type { CompleteRequest } from "../../../core/protocol/node-routes.ts";
import type { ProgressEvent } from "../../../core/protocol/progress.ts";
import { isInProgress } from "../../../core/protocol/render-state.ts";
import { openDb } from "../../db/client.ts";
import { renderKey } from "../../storage/keys.ts";
import { findJob, maxJobAttempts } from "../farm/queue.ts";
import { writeProjection } from "../projection.ts";
import { joinJobId, type Progress } from "../state.ts";
import { isLive, progressAfter, taken } from "./render-transitions.ts";
import type { RoomCore } from "./room-core.ts";

/** Appends log lines (from the node or the Worker). Returns whether the node should stop. */
export async function appendLines(room: RoomCore, renderId: string, lines: string[], progress?: Progress | null): Promise<{ cancelled: boolean }> {
  const render = await room.current();
  if (!isLive(render, renderId)) return { cancelled: true };
  await room.tell(render, lines, progress);
  return { cancelled: false };
}

/** A node's progress post on a render, segment or join job: its lines, and its frames (summed over segments). */
export async function nodeProgress(room: RoomCore, renderId: string, segment: number | "join" | null, lines: string[], event?: ProgressEvent): Promise<{ cancelled: boolean }> {
  const render = await room.current();
  if (!isLive(render, renderId)) return { cancelled: true };
  const prefixed = segment === null || !render.segments ? lines : lines.map((l) => `${segment === "join" ? "join" : `segment ${segment}`}: ${l}`);
  if (!event) {
    await room.tell(render, prefixed);
    return { cancelled: false };
  }
  const after = progressAfter(render, segment, event);
  await room.tell(after.render, prefixed, after.progress);
  return { cancelled: false };
}

/** A render node took the job (`attempt` 1, or a later one after a lost lease). */
export async function markRendering(room: RoomCore, renderId: string, nodeName: string, attempt: number): Promise<void> {
  const render = await room.current();
  if (!render || render.id !== renderId) return;
  const step = taken(render, nodeName, attempt, maxJobAttempts(room.env));
  if (!step) return;
  await room.save(step.render);
  await writeProjection(openDb(room.env.DB), step.render);
  await room.tell(step.render, [step.line]);
}

/**
 * POST /api/node/jobs/:id/complete of a render job, from the node that holds it. The room decides the outcome
 * (a success with no uploaded file is a failure) and ends the render, which ends the job: the job is never ended
 * first, so a completion that breaks halfway leaves a decision the alarm finishes writing, never a lost one.
 */
export async function completeRender(room: RoomCore, jobId: string, nodeId: string, body: CompleteRequest): Promise<{ ok: boolean; error?: string }> {
  const render = await room.current();
  if (!render || !(render.id === jobId || joinJobId(render.id) === jobId) || !isInProgress(render.status)) return { ok: true };
  const job = await findJob(openDb(room.env.DB), jobId);
  if (!job || job.nodeId !== nodeId || job.status !== "running") return { ok: false, error: "this node no longer holds the job" };
  if (!body.ok) {
    await room.finish(render.id, { ok: false, error: body.error ?? "the render node reported a failure without a message" });
    return { ok: true };
  }
  const object = await room.env.FILES.head(renderKey(render.userId, render.filename));
  if (!object) {
    const error = "the render node reported success but uploaded no file";
    await room.finish(render.id, { ok: false, error });
    return { ok: false, error };
  }
  await room.finish(render.id, { ok: true, size: object.size });
  return { ok: true };
}
