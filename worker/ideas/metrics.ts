// GET /api/metrics: the idea board in numbers. Counted live with SQL aggregates (indexed, a few ms at 100k ideas)
// except refused duplicates, which leave no row behind and so have a counter.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rawStatement, rowsOf } from "../db/raw-statement.ts";
import { counters } from "../db/schema/stats.ts";
import { DUPLICATES_COUNTER } from "./create-idea.ts";

export const ACTIVE_WINDOW_DAYS = 30;

/** 00:00 UTC of the day of `now`, and of the Monday of its ISO week. */
export function periodStarts(now: number): { today: number; week: number } {
  const today = now - (now % 86_400_000);
  const weekday = (new Date(today).getUTCDay() + 6) % 7; // Monday = 0
  return { today, week: today - weekday * 86_400_000 };
}

export async function ideaMetrics(db: Db, now = Date.now()) {
  const { today, week } = periodStarts(now);
  const since = now - ACTIVE_WINDOW_DAYS * 86_400_000;
  // One batch: one round trip (to a nearby replica when db is a read session).
  const results = await db.$client.batch([
    rawStatement(db, sql`
      SELECT (SELECT count(*) FROM ideas) AS ideas,
             (SELECT count(*) FROM ideas WHERE created_at >= ${today}) AS today,
             (SELECT count(*) FROM ideas WHERE created_at >= ${week}) AS week,
             (SELECT count(*) FROM idea_votes) AS ideaVotes,
             (SELECT count(*) FROM enrichment_votes) AS enrichmentVotes,
             (SELECT count(*) FROM enrichments) AS enrichments,
             (SELECT count(*) FROM idea_comments) AS comments`),
    rawStatement(db, sql`SELECT status, count(*) AS n FROM ideas GROUP BY status`),
    rawStatement(db, sql`SELECT group_slug AS slug, count(*) AS n FROM ideas GROUP BY group_slug`),
    // Anyone who posted, voted, enriched or commented in the window; the key prefix says human or bot (a vote counts
    // for the credential that cast it, though it belongs to the person).
    rawStatement(db, sql`
      SELECT substr(actor, 1, instr(actor, ':') - 1) AS kind, count(DISTINCT actor) AS n FROM (
        SELECT author AS actor FROM ideas WHERE created_at >= ${since}
        UNION SELECT coalesce(cast_by, voter) FROM idea_votes WHERE created_at >= ${since}
        UNION SELECT author FROM enrichments WHERE created_at >= ${since}
        UNION SELECT coalesce(cast_by, voter) FROM enrichment_votes WHERE created_at >= ${since}
        UNION SELECT author FROM idea_comments WHERE created_at >= ${since}
      ) GROUP BY kind`),
    rawStatement(db, sql`SELECT ${counters.value} AS value FROM ${counters} WHERE ${counters.name} = ${DUPLICATES_COUNTER}`),
  ]);
  const [totals] = rowsOf<{ ideas: number; today: number; week: number; ideaVotes: number; enrichmentVotes: number; enrichments: number; comments: number }>(results[0]);
  const statuses = rowsOf<{ status: string; n: number }>(results[1]);
  const groups = rowsOf<{ slug: string | null; n: number }>(results[2]);
  const active = rowsOf<{ kind: string; n: number }>(results[3]);
  const [refused] = rowsOf<{ value: number }>(results[4]);
  const byStatus: Record<string, number> = { open: 0, building: 0, shipped: 0 };
  for (const row of statuses) byStatus[row.status] = row.n;
  const byGroup: Record<string, number> = {};
  let ungrouped = 0;
  for (const row of groups) {
    if (row.slug === null) ungrouped = row.n;
    else byGroup[row.slug] = row.n;
  }
  return {
    ideas: { total: totals?.ideas ?? 0, byStatus, byGroup, ungrouped, postedToday: totals?.today ?? 0, postedThisWeek: totals?.week ?? 0 },
    votes: { ideas: totals?.ideaVotes ?? 0, enrichments: totals?.enrichmentVotes ?? 0 },
    enrichments: totals?.enrichments ?? 0,
    comments: totals?.comments ?? 0,
    active: {
      windowDays: ACTIVE_WINDOW_DAYS,
      humans: active.find((r) => r.kind === "user")?.n ?? 0,
      bots: active.find((r) => r.kind === "bot")?.n ?? 0,
    },
    duplicatesRefused: refused?.value ?? 0,
  };
}
