// Whether any render node is there to take browser work: nodes record `last_seen_at` on every claim and progress
// post, and a node long-polls at most 25 s, so a live node is never silent for longer than NODE_SILENCE_MS. Where
// render nodes are containers (RENDER_NODE_CONTAINER bound) none need be running: queueing the work starts one.
import { and, eq, gt, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { renderNodes } from "../../db/schema/renders.ts";
import { ApiError } from "../../http/errors.ts";

export const NODE_SILENCE_MS = 30_000;

export async function markNodeSeen(db: Db, nodeId: string, now = Date.now()): Promise<void> {
  await db.update(renderNodes).set({ lastSeenAt: now }).where(eq(renderNodes.id, nodeId));
}

export async function anyNodeSeen(db: Db, withinMs = NODE_SILENCE_MS, now = Date.now()): Promise<boolean> {
  const row = await db
    .select({ id: renderNodes.id })
    .from(renderNodes)
    .where(and(isNotNull(renderNodes.lastSeenAt), gt(renderNodes.lastSeenAt, now - withinMs)))
    .limit(1)
    .get();
  return row !== undefined;
}

/** 503 before queueing work that would only wait for a node nobody runs (never where containers start on demand). */
export async function requireRenderNode(env: Env, db: Db, what: string): Promise<void> {
  if (env.RENDER_NODE_CONTAINER) return;
  if (await anyNodeSeen(db)) return;
  throw new ApiError(
    503,
    `no render node is available to ${what}: none has asked for work in the last ${NODE_SILENCE_MS / 1000} s; start one (npm start runs one) and retry`,
    {},
    { "Retry-After": "10" },
    "no_render_node",
  );
}
