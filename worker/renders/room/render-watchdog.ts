// The watchdog of a render in progress, run by its ProjectRoom's alarm. A node that stops renewing its lease loses
// the job to another node, up to MAX_JOB_ATTEMPTS tries, then the render fails with a line naming the node and why;
// a job that ended without its completion reaching the room ends the render; past the wall-clock limit of running
// time the render fails; a render nobody picks up says its place in the queue, and says once that it waits. Every path either ends the render or re-arms the watchdog.
import { eq } from "drizzle-orm";
import { openDb } from "../../db/client.ts";
import { renderNodes } from "../../db/schema/renders.ts";
import { renderKey } from "../../storage/keys.ts";
import { logEvent } from "../../http/log.ts";
import { announceWork } from "../farm/job-board.ts";
import { findJob, findJobs, leaseMs, maxJobAttempts, renderPartOf, requeueLapsedJob, type JobRow } from "../farm/queue.ts";
import { maxRenderMs, wallClockError } from "../render-wall-clock.ts";
import { writeProjection } from "../projection.ts";
import type { RoomRender } from "../state.ts";
import { jobIdsOf } from "../write-ended-render.ts";
import { placed, requeued, runningDeadline, type Outcome } from "./render-transitions.ts";
import { queuePlace } from "../farm/queue-place.ts";
import type { RoomCore } from "./room-core.ts";

const NO_NODE_NOTICE_MS = 20_000;

/** How often the watchdog looks at a render in progress. */
export function watchdogMs(env: RoomCore["env"]): number {
  return Math.min(5000, leaseMs(env));
}

/** One look at the render in progress `render`, at `now`. The wall-clock bound counts running time only
 * (runningDeadline): a render waiting in the queue has none, and says its place instead. */
export async function watchRender(room: RoomCore, render: RoomRender, now: number): Promise<void> {
  const deadline = runningDeadline(render, maxRenderMs(room.env));
  const ended = render.segments ? await watchSegments(room, render, now, deadline) : await watchWholeRender(room, render, now, deadline);
  if (!ended) await room.watchAgainAt(Math.min(now + watchdogMs(room.env), deadline ?? Infinity));
}

/** Past the wall-clock limit the render fails. True when it did. */
async function pastDeadline(room: RoomCore, render: RoomRender, now: number, deadline: number | null): Promise<boolean> {
  if (deadline === null || now < deadline) return false;
  await room.finish(render.id, { ok: false, error: wallClockError(room.env) });
  return true;
}

/** A render done whole on one node. True when the render ended. */
async function watchWholeRender(room: RoomCore, render: RoomRender, now: number, deadline: number | null): Promise<boolean> {
  const job = await findJob(openDb(room.env.DB), render.id);
  if (!job || job.status === "cancelled") {
    await room.finish(render.id, { cancelled: true, reason: "the job was withdrawn" });
    return true;
  }
  if (await pastDeadline(room, render, now, deadline)) return true;
  if (job.status === "done" || job.status === "failed") {
    await room.finish(render.id, await outcomeOfEndedJob(room, render, job));
    return true;
  }
  if (job.status === "running" && (job.leaseExpiresAt ?? 0) < now && (await retryOrFail(room, render, job))) return true;
  if (job.status === "queued") await tellPlace(room, render, job, now);
  if (job.status === "queued" && now - render.startedAt > NO_NODE_NOTICE_MS && !(await room.saidOnce(`noticed:${render.id}`))) {
    await room.tell((await room.current()) ?? render, ["still waiting for a render node to pick this render up"]);
  }
  return false;
}

/** A split render: a lost lease on any of its segments or the join. True when the render ended. */
async function watchSegments(room: RoomCore, render: RoomRender, now: number, deadline: number | null): Promise<boolean> {
  if (await pastDeadline(room, render, now, deadline)) return true;
  const jobs = await findJobs(openDb(room.env.DB), jobIdsOf(render).slice(1));
  for (const job of jobs) {
    if (job.status === "cancelled") {
      await room.finish(render.id, { cancelled: true, reason: "the job was withdrawn" });
      return true;
    }
    if (job.status !== "running" || (job.leaseExpiresAt ?? 0) >= now) continue;
    const { segment } = renderPartOf(job);
    if (await retryOrFail(room, render, job, typeof segment === "number" ? segment : undefined)) return true;
  }
  return false;
}

/** A queued render's place in the queue, told (a line, stored for GET) when it moved. */
async function tellPlace(room: RoomCore, render: RoomRender, job: JobRow, now: number): Promise<void> {
  const step = placed(render, await queuePlace(openDb(room.env.DB), job.createdAt, now));
  if (step) await room.tell(step.render, [step.line]);
}

/** A job ended in the queue without its completion reaching the room (an older Worker, a manual fix). */
async function outcomeOfEndedJob(room: RoomCore, render: RoomRender, job: JobRow): Promise<Outcome> {
  if (job.status === "done") {
    const object = await room.env.FILES.head(renderKey(render.userId, render.filename));
    if (object) return { ok: true, size: object.size };
  }
  return { ok: false, error: job.error ?? "the render job ended without its result reaching the render" };
}

/**
 * The job's node stopped renewing its lease: put the job back for another node (a whole render is queued again, a
 * segment too) or, after the last attempt, fail the render. `segment`: the index of a segment job. Returns true when
 * the render ended.
 */
async function retryOrFail(room: RoomCore, render: RoomRender, job: JobRow, segment?: number): Promise<boolean> {
  const db = openDb(room.env.DB);
  const part = segment === undefined ? undefined : render.segments?.[segment];
  const label = part ? `segment ${part.index}` : job.kind === "join" ? "join" : "render";
  // The room knows who holds a whole render or a segment; for the join, the node's name comes from its key.
  const holder = part ? part.node : job.kind === "join" ? null : render.node;
  const node = holder ? null : job.nodeId ? await db.query.renderNodes.findFirst({ where: eq(renderNodes.id, job.nodeId) }) : undefined;
  const nodeName = holder ?? node?.name ?? "(unknown)";
  const max = maxJobAttempts(room.env);
  const seconds = Math.round(leaseMs(room.env) / 1000);
  const why = `${label}: node ${nodeName} stopped renewing its lease (no progress for ${seconds} s; attempt ${job.attempts} of ${max})`;
  if (job.attempts >= max) {
    await room.tell(render, [why]);
    const who = label === "render" ? `render node ${nodeName}` : `${label}: node ${nodeName}`;
    await room.finish(render.id, { ok: false, error: `${who} stopped responding on the last attempt (${job.attempts} of ${max}); the render was given up` });
    return true;
  }
  if (!(await requeueLapsedJob(db, job.id, job.nodeId))) return false;
  const next = requeued((await room.current()) ?? render, segment, Date.now());
  if (!next.segments) await writeProjection(db, next);
  await room.tell(next, [`${why}; queued again for another node`]);
  logEvent("warn", "render.requeued", { renderId: render.id, why });
  await announceWork(room.env, job.kind as "render" | "segment" | "join");
  return false;
}
