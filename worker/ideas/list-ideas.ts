// GET /api/ideas: filtered, sorted, offset-paged. Hot is computed in SQL from the stored vote count and age.
import { and, desc, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { HOT_AGE_OFFSET_HOURS, HOT_GRAVITY, hotScore } from "../../core/ideas/hot-rank.ts";
import type { Db } from "../db/client.ts";
import { ideas } from "../db/schema/ideas.ts";
import { ideaVotedBy } from "./caller-columns.ts";
import { requireGroup } from "./groups.ts";
import { ideaRecord } from "./records.ts";
import type { ListIdeasQuery } from "./schemas.ts";
import { encodeCursor } from "../http/cursor.ts";

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
 * bound is below the page's last score the pool's order is exact; otherwise fall back to scoring everything. The
 * two probes and the pool's page go in one batch (one round trip); on a board smaller than the pool the pool is
 * every idea, so its page is exact, and only a large board whose bound fails needs the second trip.
 */
const HOT_POOL = 1000;

/** The caller as the list sees them: the voter (a person) and the author key their own ideas carry. */
export interface ListCaller {
  voter: string | null;
  key: string | null;
}

function selectPage(db: Db, voter: string | null) {
  return db.select({ ...getTableColumns(ideas), voted: ideaVotedBy(voter) }).from(ideas);
}

type PageRow = Awaited<ReturnType<ReturnType<typeof selectPage>["all"]>>[number];

/** The page scored over everything: what the pool's order falls back to. */
function fullPage(db: Db, where: SQL | undefined, query: ListIdeasQuery, voter: string | null, now: number) {
  return selectPage(db, voter)
    .where(where)
    .orderBy(...orderOf(query.sort, now))
    .limit(query.limit + 1)
    .offset(query.offset);
}

async function hotPage(db: Db, where: SQL | undefined, query: ListIdeasQuery, voter: string | null, now: number): Promise<PageRow[]> {
  const want = query.offset + query.limit;
  if (want * 2 > HOT_POOL) return fullPage(db, where, query, voter, now).all();
  const filter = where ? sql`WHERE ${where}` : sql``;
  const pool = sql`${ideas.id} IN (
    SELECT id FROM (SELECT id FROM ${ideas} ${filter} ORDER BY created_at DESC LIMIT ${HOT_POOL})
    UNION SELECT id FROM (SELECT id FROM ${ideas} ${filter} ORDER BY votes DESC LIMIT ${HOT_POOL}))`;
  const [oldest, fewest, rows] = await db.batch([
    db.select({ at: ideas.createdAt }).from(ideas).where(where).orderBy(desc(ideas.createdAt)).limit(1).offset(HOT_POOL - 1),
    db.select({ votes: ideas.votes }).from(ideas).where(where).orderBy(desc(ideas.votes)).limit(1).offset(HOT_POOL - 1),
    selectPage(db, voter).where(pool).orderBy(...orderOf("hot", now)).limit(want + 1),
  ]);
  const [oldestRow, fewestRow] = [oldest[0], fewest[0]];
  if (!oldestRow || !fewestRow) return rows.slice(query.offset); // a small board: the pool is every idea
  const last = rows[Math.min(rows.length, want + 1) - 1];
  const bound = (fewestRow.votes + 1) / ((now - oldestRow.at) / 3_600_000 + HOT_AGE_OFFSET_HOURS) ** HOT_GRAVITY;
  if (!last || hotScore(last.votes, (now - last.createdAt) / 3_600_000) <= bound) return fullPage(db, where, query, voter, now).all();
  return rows.slice(query.offset);
}

/** One page of ideas with `voted` and `mine` for the caller, in one round trip (two for a large board's rare hot fallback). */
export async function listIdeas(db: Db, query: ListIdeasQuery, caller: ListCaller, now = Date.now()) {
  const filters: SQL[] = [];
  if (query.group) filters.push(eq(ideas.groupSlug, query.group));
  if (query.status) filters.push(eq(ideas.status, query.status));
  const where = filters.length ? and(...filters) : undefined;
  // One row past the page tells whether there is a next page without a count(*).
  const rows = query.sort === "hot" ? await hotPage(db, where, query, caller.voter, now) : await fullPage(db, where, query, caller.voter, now).all();
  // Every idea's group exists (groups are never deleted), so only an empty page can be a group that does not.
  if (rows.length === 0 && query.group) await requireGroup(db, query.group);
  const page = rows.slice(0, query.limit);
  const list = page.map((row) => ({ ...ideaRecord(row, row.voted), mine: caller.key !== null && row.author === caller.key }));
  return {
    ideas: list,
    sort: query.sort,
    limit: query.limit,
    offset: query.offset,
    nextOffset: rows.length > query.limit ? query.offset + query.limit : null,
    next: rows.length > query.limit ? encodeCursor("ideas", { offset: query.offset + query.limit }) : null,
  };
}
