// A job given back by the node holding it (POST /api/node/jobs/:id/release): the node is stopping (a SIGTERM, a
// deploy, a container stopped), so the job goes back to the queue at once for another node rather than a lease later.
// A render's work (render, segment, join) is its room's to decide (render-transitions.ts `givenBack`); a snapshot or
// check is put back here, and the request waiting for it (worker/checks/wait-for-job.ts) keeps waiting within its
// bound. The try counts as an attempt either way (the claim counted it).
import { isRenderWork } from "../../../core/protocol/job-kinds.ts";
import { openDb } from "../../db/client.ts";
import { roomOf } from "../../durable-objects/room-of.ts";
import type { Env } from "../../env.ts";
import { logEvent } from "../../http/log.ts";
import { announceWork } from "./job-board.ts";
import type { JobHolder } from "./job-holder.ts";
import { releaseHeldJob, renderPartOf, type JobRow } from "./queue.ts";
import { wakeRenderNodes } from "./render-node-container.ts";

/** Puts `job` back in the queue for another node, while `holder` still holds it running. */
export async function releaseJob(env: Env, job: JobRow, holder: JobHolder, reason: string | undefined): Promise<{ released: boolean }> {
  if (job.status !== "running") return { released: false };
  if (isRenderWork(job.kind)) return roomOf(env, job).giveBack(renderPartOf(job).renderId, job.id, holder);
  const put = await releaseHeldJob(openDb(env.DB), job.id, holder, `given back by its node (${reason ?? "stopping"})`);
  if (!put) return { released: false };
  logEvent("warn", "checks.job_given_back", { jobId: job.id, kind: job.kind, attempt: job.attempts, reason });
  await announceWork(env, job.kind === "check" ? "check" : "snapshot");
  // Where nodes are containers the stopping one may have been the only one running.
  await wakeRenderNodes(env).catch((error: unknown) => logEvent("error", "containers.wake_failed", { kind: job.kind, error }));
  await roomOf(env, job).jobChanged(job.id);
  return { released: true };
}
