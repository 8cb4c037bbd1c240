// Carries out a transition's step (render-transitions.ts, split-transitions.ts): a job to put back first, then the
// render stored, then each effect in order (log lines told, the D1 row written, jobs ended or queued, work announced,
// nodes woken). The one effect it does not carry out is the render's end: that is the driver's (render-driver.ts),
// which stores, writes and tells an end (render-ends.ts) and goes on with a batch, so it is handed back. A transition
// lists `end` last.
import type { Env } from "../../env.ts";
import { openDb } from "../../db/client.ts";
import { logEvent } from "../../http/log.ts";
import { announceWork } from "../farm/job-board.ts";
import { wakeRenderNodes } from "../farm/render-node-container.ts";
import { endRenderJob, queueRenderJobs, releaseRenderJob, requeueRenderJob, writeProjection } from "../projection.ts";
import type { RoomRender } from "../state.ts";
import type { RenderFeed } from "./render-feed.ts";
import { storeRender } from "./render-store.ts";
import type { Step } from "./render-step.ts";
import type { Outcome } from "./render-transitions.ts";

/** The step as carried out: the render stored, and the end it asks for, if any. */
export interface AppliedStep {
  render: RoomRender;
  end: Outcome | null;
}

/**
 * Applies `step`; null when there was none, or when a job to put back was taken by another hand first (the step is
 * then dropped: nothing stored, nothing told).
 */
export async function applyStep(env: Env, storage: DurableObjectStorage, feed: RenderFeed, step: Step | null): Promise<AppliedStep | null> {
  if (!step) return null;
  const { render } = step;
  const db = openDb(env.DB);
  for (const effect of step.effects) {
    if (effect.do !== "requeueJob") continue;
    // A job its node gave back names the attempt it held (only that hand can release it); a lost lease does not.
    const put = effect.attempt !== undefined && effect.nodeId !== null
      ? await releaseRenderJob(db, effect.jobId, { nodeId: effect.nodeId, attempt: effect.attempt }, effect.why)
      : await requeueRenderJob(db, effect.jobId, effect.nodeId);
    if (!put) return null;
    logEvent("warn", "render.requeued", { renderId: render.id, why: effect.why });
  }
  await storeRender(storage, render);
  let end: Outcome | null = null;
  for (const effect of step.effects) {
    switch (effect.do) {
      case "tell":
        feed.lines(render.id, effect.lines, { status: render.status, progress: render.progress, ...(render.phase === "queued" && render.queue ? { queue: render.queue } : {}) });
        break;
      case "project":
        await writeProjection(db, render);
        break;
      case "endJob":
        await endRenderJob(db, effect.jobId, effect.result);
        break;
      case "queueJobs":
        await queueRenderJobs(db, render, effect.jobs);
        break;
      case "announce":
        await announceWork(env, effect.kind);
        break;
      case "wakeNodes":
        // In production more container nodes start for the segments (their number follows the queue's depth).
        await wakeRenderNodes(env);
        break;
      case "end":
        end = effect.outcome;
        break;
      case "requeueJob":
        break;
    }
  }
  return { render, end };
}
