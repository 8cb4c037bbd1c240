// GET /api/metrics: the idea board in numbers. Counted live with SQL aggregates (indexed, a few ms at 100k ideas)
// except refused duplicates, which leave no row behind and so have a counter.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
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
  const [totals, statuses, groups, active, refused] = await Promise.all([
    db.get<{ ideas: number; today: number; week: number; ideaVotes: number; enrichmentVotes: number; enrichments: number; comments: number }>(sql`
      SELECT (SELECT count(*) FROM ideas) AS ideas,
             (SELECT count(*) FROM ideas WHERE created_at >= ${today}) AS today,
             (SELECT count(*) FROM ideas WHERE created_at >= ${week}) AS week,
             (SELECT count(*) FROM idea_votes) AS ideaVotes,
             (SELECT count(*) FROM enrichment_votes) AS enrichmentVotes,
             (SELECT count(*) FROM enrichments) AS enrichments,
             (SELECT count(*) FROM idea_comments) AS comments`),
    db.all<{ status: string; n: number }>(sql`SELECT status, count(*) AS n FROM ideas GROUP BY status`),
    db.all<{ slug: string | null; n: number }>(sql`SELECT group_slug AS slug, count(*) AS n FROM ideas GROUP BY group_slug`),
    // Anyone who posted, voted, enriched or commented in the window; the key prefix says human or bot (a vote counts
    // for the credential that cast it, though it belongs to the person).
    db.all<{ kind: string; n: number }>(sql`
      SELECT substr(actor, 1, instr(actor, ':') - 1) AS kind, count(DISTINCT actor) AS n FROM (
        SELECT author AS actor FROM ideas WHERE created_at >= ${since}
        UNION SELECT coalesce(cast_by, voter) FROM idea_votes WHERE created_at >= ${since}
        UNION SELECT author FROM enrichments WHERE created_at >= ${since}
        UNION SELECT coalesce(cast_by, voter) FROM enrichment_votes WHERE created_at >= ${since}
        UNION SELECT author FROM idea_comments WHERE created_at >= ${since}
      ) GROUP BY kind`),
    db.select({ value: counters.value }).from(counters).where(eq(counters.name, DUPLICATES_COUNTER)).get(),
  ]);
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
