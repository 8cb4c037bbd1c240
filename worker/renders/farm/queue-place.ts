// Where a queued render stands in the queue (its room's watchdog asks every few seconds while it waits): how much
// render work was queued before it, and when a node should take it at the pace of recent renders. One query, read
// from the jobs_queue index (status, created_at); nodes are counted as the farm's presence counts them (seen in 30 s).
import { sql } from "drizzle-orm";
import type { RenderQueuePlace } from "../../../core/protocol/render-state.ts";
import type { Db } from "../../db/client.ts";

/** Recent finished renders averaged for the pace. */
const PACE_SAMPLE = 20;
/** A node seen this recently takes work (node-presence.ts says why 30 s). */
const SEEN_WITHIN_MS = 30_000;

interface Counts {
  ahead: number;
  paceMs: number | null;
  nodes: number;
}

/** The place of the render job queued at `queuedAt`. */
export async function queuePlace(db: Db, queuedAt: number, now = Date.now()): Promise<RenderQueuePlace> {
  const counts = await db.get<Counts>(sql`SELECT
      (SELECT count(*) FROM jobs WHERE status = 'queued' AND created_at < ${queuedAt} AND kind IN ('render', 'segment', 'join')) AS ahead,
      (SELECT avg(finished_at - started_at) FROM (SELECT finished_at, started_at FROM jobs
         WHERE status = 'done' AND kind = 'render' AND started_at IS NOT NULL AND finished_at IS NOT NULL
         ORDER BY created_at DESC LIMIT ${PACE_SAMPLE})) AS paceMs,
      (SELECT count(*) FROM render_nodes WHERE last_seen_at > ${now - SEEN_WITHIN_MS}) AS nodes`);
  return placeOf(counts);
}

/** Pure: the place from the counts. With no node seen, the estimate assumes one will start (containers do). */
export function placeOf({ ahead, paceMs, nodes }: Counts): RenderQueuePlace {
  const position = ahead + 1;
  const etaSeconds = paceMs === null ? null : Math.ceil((Math.ceil(ahead / Math.max(1, nodes)) * paceMs) / 1000);
  return { position, etaSeconds };
}
