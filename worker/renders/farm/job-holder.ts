// Who holds a job: the node key that claimed it and the attempt it claimed (core/protocol/node-routes.ts
// JOB_ATTEMPT_HEADER). Several processes may share one key (container instances all present CONTAINER_NODE_KEY), so
// the key alone would take a process whose lease lapsed for the one that claimed the job after it: its late
// reports (a failure "render cancelled" when it was told to stop) would end the other's render. Pure.
import { JOB_ATTEMPT_HEADER } from "../../../core/protocol/node-routes.ts";

export interface JobHolder {
  /** The node key's id (render_nodes.id). */
  nodeId: string;
  /** The attempt the caller claimed; null when it did not say (judged by the key alone). */
  attempt: number | null;
}

/** The attempt a node's call names, or null when it names none (or none readable). */
export function attemptOf(headers: Headers): number | null {
  const value = Number(headers.get(JOB_ATTEMPT_HEADER) ?? NaN);
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** Whether `holder` is the one holding `job` now: its key claimed it, and (when it says) in the job's current attempt. */
export function isHolder(job: { nodeId: string | null; attempts: number }, holder: JobHolder): boolean {
  return job.nodeId === holder.nodeId && (holder.attempt === null || holder.attempt === job.attempts);
}
