// GET /api/ideas: filtered, sorted, offset-paged. Hot is computed in SQL from the stored vote count and age.
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { HOT_AGE_OFFSET_HOURS, HOT_GRAVITY, hotScore } from "../../core/ideas/hot-rank.ts";
import type { Db } from "../db/client.ts";
import { ideaVotes, ideas } from "../db/schema/ideas.ts";
import { ideaRecord, type IdeaRecord } from "./records.ts";
import type { ListIdeasQuery } from "./schemas.ts";
import { encodeCursor } from "../http/cursor.ts";

/** Ids among `ids` that `voter` has voted for. */
export async function votedIdeaIds(db: Db, voter: string | null, ids: number[]): Promise<Set<number>> {
  if (!voter || ids.length === 0) return new Set();
  const rows = await db
    .select({ id: ideaVotes.ideaId })
    .from(ideaVotes)
    .where(and(eq(ideaVotes.voter, voter), inArray(ideaVotes.ideaId, ids)))
    .all();
  return new Set(rows.map((r) => r.id));
}

function orderOf(sort: ListIdeasQuery["sort"], now: number): SQL[] {
  if (sort === "new") return [desc(ideas.createdAt), desc(ideas.id)];
  if (sort === "top") return [desc(ideas.votes), desc(ideas.createdAt), desc(ideas.id)];
  const hot = sql`(${ideas.votes} + 1.0) / pow((${now} - ${ideas.createdAt}) / 3600000.0 + ${HOT_AGE_OFFSET_HOURS}, ${HOT_GRAVITY})`;
  return [desc(hot), desc(ideas.id)];
}

/**
 * Hot order without scoring every idea: the top of a hot page is almost always among the newest ideas or the
 * most voted. Score only those POOL of each; an idea outside both is older than the pool's oldest and has no more
 * votes than the pool's least voted, so its hot score is at most (v + 1) / (age + 2)^1.8 of those two. When that
 * bound is below the page's last score the pool's order is exact; otherwise fall back to scoring everything.
 */
const HOT_POOL = 1000;

async function hotPage(db: Db, where: SQL | undefined, limit: number, offset: number, now: number) {
  const want = offset + limit;
  if (want * 2 > HOT_POOL) return null;
  const filter = where ? sql`WHERE ${where}` : sql``;
  const [oldest, fewest] = await Promise.all([
    db.select({ at: ideas.createdAt }).from(ideas).where(where).orderBy(desc(ideas.createdAt)).limit(1).offset(HOT_POOL - 1).get(),
    db.select({ votes: ideas.votes }).from(ideas).where(where).orderBy(desc(ideas.votes)).limit(1).offset(HOT_POOL - 1).get(),
  ]);
  if (!oldest || !fewest) return null; // a small board: scoring everything is cheap
  const pool = sql`${ideas.id} IN (
    SELECT id FROM (SELECT id FROM ${ideas} ${filter} ORDER BY created_at DESC LIMIT ${HOT_POOL})
    UNION SELECT id FROM (SELECT id FROM ${ideas} ${filter} ORDER BY votes DESC LIMIT ${HOT_POOL}))`;
  const rows = await db.select().from(ideas).where(pool).orderBy(...orderOf("hot", now)).limit(want + 1).all();
  const last = rows[Math.min(rows.length, want + 1) - 1];
  const bound = (fewest.votes + 1) / ((now - oldest.at) / 3_600_000 + HOT_AGE_OFFSET_HOURS) ** HOT_GRAVITY;
  if (!last || hotScore(last.votes, (now - last.createdAt) / 3_600_000) <= bound) return null;
  return rows.slice(offset);
}

export async function listIdeas(db: Db, query: ListIdeasQuery, voter: string | null, now = Date.now()) {
  const filters: SQL[] = [];
  if (query.group) filters.push(eq(ideas.groupSlug, query.group));
  if (query.status) filters.push(eq(ideas.status, query.status));
  const where = filters.length ? and(...filters) : undefined;
  // One row past the page tells whether there is a next page without a count(*).
  const rows =
    (query.sort === "hot" ? await hotPage(db, where, query.limit, query.offset, now) : null) ??
    (await db
      .select()
      .from(ideas)
      .where(where)
      .orderBy(...orderOf(query.sort, now))
      .limit(query.limit + 1)
      .offset(query.offset)
      .all());
  const page = rows.slice(0, query.limit);
  const voted = await votedIdeaIds(db, voter, page.map((r) => r.id));
  const list: IdeaRecord[] = page.map((row) => ideaRecord(row, voted.has(row.id)));
  return {
    ideas: list,
    sort: query.sort,
    limit: query.limit,
    offset: query.offset,
    nextOffset: rows.length > query.limit ? query.offset + query.limit : null,
    next: rows.length > query.limit ? encodeCursor("ideas", { offset: query.offset + query.limit }) : null,
  };
}
