// The D1 and R2 side of a render's end, written from the ProjectRoom's decision (worker/renders/room/project-room.ts): every
// job of the render still queued or running ends with the same outcome (their nodes learn it at their next post),
// and the history row is written with them in one batch (one round trip, all or nothing), so GET /api/renders lists
// the file only once everything else agrees. A split render's segment files go first: the render has ended in the
// room already, so a node still holding one of its jobs is told to stop at its next post whatever it reads.
// Idempotent: the room's alarm calls it again until it succeeds.
import { isInProgress } from "../../core/protocol/render-state.ts";
import { openDb } from "../db/client.ts";
import type { Env } from "../env.ts";
import { endJobsQuery } from "./farm/queue.ts";
import { bumpCounterQuery } from "../stats/counters.ts";
import { segmentKey } from "./segment-keys.ts";
import { joinJobId, segmentJobId, type RoomRender } from "./state.ts";
import { projectionQuery } from "./projection.ts";

/** The work jobs of a render: its render job, and while split its segment jobs and join. */
export function jobIdsOf(render: RoomRender): string[] {
  if (!render.segments) return [render.id];
  return [render.id, ...render.segments.map((s) => segmentJobId(render.id, s.index)), joinJobId(render.id)];
}

/** Writes the ended render's rows; returns it with the segments still queued or rendering marked cancelled. */
export async function writeEndedRender(env: Env, render: RoomRender): Promise<RoomRender> {
  const db = openDb(env.DB);
  const jobStatus = render.status === "done" ? "done" : render.status === "cancelled" ? "cancelled" : "failed";
  const final: RoomRender = render.segments
    ? { ...render, segments: render.segments.map((part) => (isInProgress(part.status) ? { ...part, status: "cancelled" } : part)) }
    : render;
  if (render.segments) await env.FILES.delete(render.segments.map((s) => segmentKey(render.userId, render.id, s.index)));
  const endJobs = endJobsQuery(db, jobIdsOf(render), jobStatus, render.error ? { error: render.error } : {});
  const row = projectionQuery(db, final);
  if (render.status === "done") await db.batch([endJobs, row, bumpCounterQuery(db, "rendersCompleted")]);
  else await db.batch([endJobs, row]);
  return final;
}
