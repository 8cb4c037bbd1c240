// How many nodes could take a segment of a render being planned now, for the split decision (worker/renders/
// split-plan.ts). The Worker cannot know it exactly; it counts what it does know, without a D1 trip where it can:
//   - the planning node itself: once its render job ends with the split, it claims a segment;
//   - the nodes parked in the JobBoard waiting for segment work (an in-memory count in the one board Durable Object:
//     idle nodes for sure, a lower bound since a node between two waits is not counted);
//   - in production, the container instances not yet busy: CONTAINER_MAX_INSTANCES less the render work queued or
//     running besides this render's job (wakeRenderNodes starts that many for the segments). A cold instance adds its
//     start to its first segment; the model does not count that (it is not measured yet).
// Nodes busy now that will be free in a moment are not counted: their remaining time is not known.
import { configOf } from "../../config/config-of.ts";
import { logEvent } from "../../http/log.ts";
import type { Env } from "../../env.ts";
import { jobBoard } from "./job-board.ts";
import { queueDepth } from "./render-node-container.ts";
import { countFreeNodes, type FreeNodes } from "./free-node-count.ts";

/** Idle nodes waiting for segment work; when the board cannot answer, none (said in the log: the render stays whole). */
async function idleNodes(env: Env): Promise<number> {
  try {
    return await jobBoard(env).idleNodes("segment");
  } catch (error) {
    logEvent("warn", "farm.idle_nodes_unknown", { error, assumed: "no idle node" });
    return 0;
  }
}

/** `ownJobQueued`: false for a render not queued yet (its quote, asked before its POST admits it). */
export async function freeNodes(env: Env, ownJobQueued = true): Promise<FreeNodes> {
  const idle = await idleNodes(env);
  if (!env.RENDER_NODE_CONTAINER) return countFreeNodes(idle, null);
  // This render's own job, once queued, is in the depth: its node is the planning node, counted as free.
  const busy = Math.max(0, (await queueDepth(env)).render - (ownJobQueued ? 1 : 0));
  return countFreeNodes(idle, { max: configOf(env).CONTAINER_MAX_INSTANCES, busy });
}
