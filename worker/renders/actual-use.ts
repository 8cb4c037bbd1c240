// What an ended render actually used, kept beside its quote (quote-estimate.ts) so the two can be compared: the node
// seconds of its jobs (the render job, and a split render's segments and join) and its wall seconds. Pure: the room
// reads the job rows (render-ends.ts) just before it writes the render's D1 row, which then carries the figures.
//
// A job's row keeps the claim of its last attempt only (started_at), so the node time of an attempt that lost its
// lease is not counted; the wall seconds (the render's running time, MAX_RENDER_MS's measure) do count it.
import type { RenderActual } from "../../core/protocol/render-quote.ts";
import type { EndedRender } from "./state.ts";

const tenths = (ms: number) => Math.round(ms / 100) / 10;

/** The figures from the render's job rows; null when no node ever took it (nothing was used). A job still open at
 * the end (the whole render's own, a join) ran until the render ended. */
export function actualUse(jobs: readonly { startedAt: number | null; finishedAt: number | null }[], render: Pick<EndedRender, "doneAt" | "ranMs">): RenderActual | null {
  const ran = jobs.filter((job): job is { startedAt: number; finishedAt: number | null } => job.startedAt !== null);
  if (ran.length === 0) return null;
  const nodeMs = ran.reduce((sum, job) => sum + Math.max(0, Math.min(job.finishedAt ?? render.doneAt, render.doneAt) - job.startedAt), 0);
  return { renderSeconds: tenths(nodeMs), wallSeconds: tenths(render.ranMs) };
}
