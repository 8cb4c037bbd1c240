// The D1 and R2 side of a render's end, written from the ProjectRoom's decision (worker/renders/room/project-room.ts): every
// job of the render still queued or running ends with the same outcome (their nodes learn it at their next post),
// the segment files go, and the history row comes last, so GET /api/renders lists the file only once everything
// else agrees. Idempotent: the room's alarm calls it again until it succeeds.
import { isInProgress } from "../../core/protocol/render-state.ts";
import { openDb } from "../db/client.ts";
import type { Env } from "../env.ts";
import { endJobs } from "./farm/queue.ts";
import { bumpCounter } from "../stats/counters.ts";
import { segmentKey } from "./segment-keys.ts";
import { joinJobId, segmentJobId, type RoomRender } from "./state.ts";
import { writeProjection } from "./projection.ts";

/** The work jobs of a render: its render job, and while split its segment jobs and join. */
export function jobIdsOf(render: RoomRender): string[] {
  if (!render.segments) return [render.id];
  return [render.id, ...render.segments.map((s) => segmentJobId(render.id, s.index)), joinJobId(render.id)];
}

/** Writes the ended render's rows; returns it with the segments still queued or rendering marked cancelled. */
export async function writeEndedRender(env: Env, render: RoomRender): Promise<RoomRender> {
  const db = openDb(env.DB);
  const jobStatus = render.status === "done" ? "done" : render.status === "cancelled" ? "cancelled" : "failed";
  await endJobs(db, jobIdsOf(render), jobStatus, render.error ? { error: render.error } : {});
  const final: RoomRender = render.segments
    ? { ...render, segments: render.segments.map((part) => (isInProgress(part.status) ? { ...part, status: "cancelled" } : part)) }
    : render;
  if (render.segments) await env.FILES.delete(render.segments.map((s) => segmentKey(render.userId, render.id, s.index)));
  await writeProjection(db, final);
  if (render.status === "done") await bumpCounter(db, "rendersCompleted");
  return final;
}
