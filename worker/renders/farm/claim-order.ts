// A claim's order (queue.ts claimJob): which queued job a node takes next. Pure SQL building, no I/O; timed on a
// large queue by bench/claim-order.ts.
import { sql, type SQL } from "drizzle-orm";
import type { JobKind } from "../../../core/protocol/job-kinds.ts";

/**
 * Which queued job a claim takes. Snapshots and checks first (a person waits on the request), then previews, then
 * render work. Within a tier, fair across users: first the user with the fewest render jobs running now (one user's
 * segments spread over the farm do not keep another user's render waiting for a node), then the user whose render
 * work a node took least recently (never first), then the oldest job. The second key is what serves the case the
 * first cannot: one node doing one job at a time claims only when nothing runs, so every user ties at zero running,
 * and without it one user's three queued renders would all go before another user's one. A job's started_at is its
 * first claim (a retry keeps it), so "last served" is the newest first claim of the user's render work.
 */
const RENDER_WORK = sql`('render', 'segment', 'join')`;
/** The newest first claim of a user's jobs of one kind: one seek in jobs_user_served (user_id, kind, started_at). */
const lastServed = (kind: string) =>
  sql`coalesce((SELECT max(served.started_at) FROM jobs AS served WHERE served.user_id = best.user_id AND served.kind = ${sql.raw(`'${kind}'`)}), 0)`;
const TIER = sql`CASE kind WHEN 'snapshot' THEN 0 WHEN 'check' THEN 0 WHEN 'preview' THEN 1 ELSE 2 END`;

/**
 * The id of the queued job of the given kinds a claim takes next (the order above). Both per-user keys are the same
 * for all of a user's jobs, so the job taken is one user's first by tier and age: each waiting user's first job is
 * found in one pass over the queue (SQLite's min() hands over the other columns of its row), and the keys are
 * worked out for those users only (a few seeks each), not for every queued job. The running jobs are read from
 * jobs_queue (status first: a handful of rows); `+` keeps SQLite from walking the user's history by user_id instead,
 * which its statistics (after ANALYZE) would pick. The last claim is one seek per kind.
 */
export function nextJobQuery(kinds: readonly JobKind[]): SQL {
  const wanted = sql.join(kinds.map((kind) => sql`${kind}`), sql`, `);
  return sql`SELECT best.id FROM (
      SELECT id, user_id, ${TIER} AS tier, created_at, min(${TIER} * 1e15 + created_at) AS rank
      FROM jobs WHERE status = 'queued' AND kind IN (${wanted}) GROUP BY user_id) AS best
    ORDER BY best.tier,
      (SELECT count(*) FROM jobs AS busy WHERE busy.status = 'running' AND +busy.user_id = best.user_id AND busy.kind IN ${RENDER_WORK}),
      max(${lastServed("render")}, ${lastServed("segment")}, ${lastServed("join")}),
      best.created_at
    LIMIT 1`;
}
