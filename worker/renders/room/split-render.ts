// A render split across nodes, as its ProjectRoom runs it: the planning node's plan (kept whole, or split into
// segment jobs for the nodes free now when that finishes it sooner: split-plan.ts), each segment taken and
// completed, and the join queued once all are done. The state changes are render-transitions.ts; this module does
// the queue and storage side of them.
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
import { decideSplit, farmModel, type SplitDecision } from "../split-plan.ts";
import { freeNodes } from "../farm/free-nodes.ts";
import type { FreeNodes } from "../farm/free-node-count.ts";
import { joinJobId, segmentJobId } from "../state.ts";
import type { RoomCore } from "./room-core.ts";
import { isLive, planned, segmentDone, segmentFailed, segmentTaken } from "./render-transitions.ts";

/** The render's log line for the decision: what was counted, and the estimates it compared. */
function decisionLine(d: SplitDecision, free: FreeNodes, plan: RenderPlan): string {
  const s = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x)} s`;
  if (d.whole === "gif") return "kept whole: a GIF's palette needs every frame on one node";
  if (d.whole) return `kept whole on this node: ${free.said}; about ${s(d.wholeS)} whole${d.whole === "one free node" ? "" : `, no split finishes sooner (${d.whole})`}`;
  const size = Math.round(plan.frames / d.segments.length);
  return `render split into ${d.segments.length} segments of about ${size} frames (${plan.frames} frames at ${plan.fpsText} fps) for ${free.said}: about ${s(d.splitS)} instead of ${s(d.wholeS)} whole`;
}

/**
 * POST /api/node/jobs/:id/plan: the node that holds the render job loaded the composition. The render is split when
 * that finishes it sooner with the nodes free now (split-plan.ts, free-nodes.ts): the render job ends here and one
 * segment job per frame range is queued for any nodes; otherwise it stays whole on the planning node. A plan longer
 * than MAX_VIDEO_SECONDS fails the render and queues nothing.
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
  const free = render.options.format === "gif" ? { count: 1, said: "" } : await freeNodes(room.env);
  const decision = decideSplit({ ...plan, format: render.options.format, freeNodes: free.count }, farmModel(configOf(room.env)));
  const ranges = decision.segments;
  const next = planned(render, plan, ranges);
  // Kept whole: the planning node goes on rendering; the room keeps the plan and says why (tell stores it).
  if (!next.segments) {
    await room.tell(next, [decisionLine(decision, free, plan)]);
    return { segments: ranges, cancelled: false };
  }
  await room.save(next);
  // The render job's work (the plan) is done; the render goes on as segments.
  await endJob(db, renderId, "done", { result: { segments: ranges.length } });
  for (const r of ranges) {
    const options = { renderId, index: r.index, fromFrame: r.fromFrame, toFrame: r.toFrame, plan, render: render.options };
    await enqueueJob(db, { id: segmentJobId(renderId, r.index), userId: render.userId, slug: render.slug, kind: "segment", options });
  }
  await room.tell(next, [decisionLine(decision, free, plan)]);
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
