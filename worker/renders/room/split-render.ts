// A render split across nodes, as its ProjectRoom runs it: the planning node's plan (kept whole, or split into
// segment jobs for any nodes), each segment taken and completed, and the join queued once all are done. The state
// changes are render-transitions.ts; this module does the queue and storage side of them.
import type { CompleteRequest } from "../../../core/protocol/node-routes.ts";
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";
import { configOf } from "../../config/config-of.ts";
import { wakeRenderNodes } from "../farm/render-node-container.ts";
import { openDb } from "../../db/client.ts";
import { announceWork } from "../farm/job-board.ts";
import { endJob, enqueueJob, findJob, maxJobAttempts } from "../farm/queue.ts";
import { videoTooLong } from "../video-length.ts";
import { writeProjection } from "../projection.ts";
import { segmentKey } from "../segment-keys.ts";
import { splitPlan, splitThresholds } from "../split-plan.ts";
import { joinJobId, segmentJobId } from "../state.ts";
import type { RoomCore } from "./room-core.ts";
import { isLive, planned, segmentDone, segmentFailed, segmentTaken } from "./render-transitions.ts";

/**
 * POST /api/node/jobs/:id/plan: the node that holds the render job loaded the composition. A short render (or a
 * GIF) stays whole on that node; a longer one is split: the render job ends here and one segment job per frame
 * range is queued for any nodes. A plan longer than MAX_VIDEO_SECONDS fails the render and queues nothing.
 */
export async function planRender(room: RoomCore, renderId: string, nodeId: string, plan: RenderPlan): Promise<{ segments: SegmentRange[]; cancelled: boolean }> {
  const render = await room.current();
  if (!isLive(render, renderId)) return { segments: [], cancelled: true };
  const db = openDb(room.env.DB);
  const job = await findJob(db, renderId);
  if (!job || job.nodeId !== nodeId || job.status !== "running") return { segments: [], cancelled: true };
  const tooLong = videoTooLong(room.env, plan);
  if (tooLong) {
    await room.finish(renderId, { ok: false, error: tooLong });
    return { segments: [], cancelled: true };
  }
  const ranges = splitPlan(plan.frames, render.options.format, splitThresholds(configOf(room.env), plan));
  const next = planned(render, plan, ranges);
  await room.save(next);
  if (!next.segments) return { segments: ranges, cancelled: false };
  // The render job's work (the plan) is done; the render goes on as segments.
  await endJob(db, renderId, "done", { result: { segments: ranges.length } });
  for (const r of ranges) {
    const options = { renderId, index: r.index, fromFrame: r.fromFrame, toFrame: r.toFrame, plan, render: render.options };
    await enqueueJob(db, { id: segmentJobId(renderId, r.index), userId: render.userId, slug: render.slug, kind: "segment", options });
  }
  const size = Math.round(plan.frames / ranges.length);
  await room.tell(next, [`render split into ${ranges.length} segments of about ${size} frames (${plan.frames} frames at ${plan.fpsText} fps) for any nodes`]);
  await announceWork(room.env, "segment");
  // In production more container nodes start for the segments (their number follows the queue's depth).
  await wakeRenderNodes(room.env);
  return { segments: ranges, cancelled: false };
}

/** A node took a segment or the join (`attempt` 1, or later after a lost lease). */
export async function markSegment(room: RoomCore, renderId: string, segment: number | "join", nodeName: string, attempt: number): Promise<void> {
  const render = await room.current();
  if (!isLive(render, renderId)) return;
  const step = segmentTaken(render, segment, nodeName, attempt, maxJobAttempts(room.env));
  if (!step) return;
  if (render.status === "queued") await writeProjection(openDb(room.env.DB), step.render);
  await room.tell(step.render, [step.line]);
}

/** POST /api/node/jobs/:id/complete of a segment job. The last segment done queues the join. */
export async function completeSegment(room: RoomCore, renderId: string, index: number, nodeId: string, body: CompleteRequest): Promise<{ ok: boolean; error?: string }> {
  const render = await room.current();
  if (!isLive(render, renderId) || !render.segments?.[index]) return { ok: true };
  const db = openDb(room.env.DB);
  const jobId = segmentJobId(renderId, index);
  const job = await findJob(db, jobId);
  if (!job || job.nodeId !== nodeId || job.status !== "running") return { ok: false, error: "this node no longer holds the job" };
  const node = render.segments[index]!.node ?? "?";
  if (!body.ok) {
    await room.save(segmentFailed(render, index));
    await room.finish(renderId, { ok: false, error: `segment ${index} failed on node ${node}: ${body.error ?? "no message"}` });
    return { ok: true };
  }
  if (!(await room.env.FILES.head(segmentKey(render.userId, renderId, index)))) {
    const error = `segment ${index}: the render node reported success but uploaded no file`;
    await room.save(segmentFailed(render, index));
    await room.finish(renderId, { ok: false, error });
    return { ok: false, error };
  }
  const step = segmentDone(render, index);
  await room.save(step.render);
  await endJob(db, jobId, "done");
  const told = await room.tell(step.render, [step.line]);
  if (step.allDone) {
    const options = { renderId, segments: told.segments!.map((s) => s.index), plan: told.plan, render: told.options };
    await enqueueJob(db, { id: joinJobId(renderId), userId: told.userId, slug: told.slug, kind: "join", options });
    await room.tell(told, ["all segments done; queued the join"]);
    await announceWork(room.env, "join");
  }
  return { ok: true };
}
