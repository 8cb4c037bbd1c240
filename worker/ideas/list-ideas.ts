// GET /api/ideas: filtered, sorted, offset-paged. Hot is computed in SQL from the stored vote count and age.
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { HOT_AGE_OFFSET_HOURS, HOT_GRAVITY } from "../../core/ideas/hot-rank.ts";
import type { Db } from "../db/client.ts";
import { ideaVotes, ideas } from "../db/schema/ideas.ts";
import { ideaRecord, type IdeaRecord } from "./records.ts";
import type { ListIdeasQuery } from "./schemas.ts";

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

export async function listIdeas(db: Db, query: ListIdeasQuery, voter: string | null, now = Date.now()) {
  const filters: SQL[] = [];
  if (query.group) filters.push(eq(ideas.groupSlug, query.group));
  if (query.status) filters.push(eq(ideas.status, query.status));
  // One row past the page tells whether there is a next page without a count(*).
  const rows = await db
    .select()
    .from(ideas)
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(...orderOf(query.sort, now))
    .limit(query.limit + 1)
    .offset(query.offset)
    .all();
  const page = rows.slice(0, query.limit);
  const voted = await votedIdeaIds(db, voter, page.map((r) => r.id));
  const list: IdeaRecord[] = page.map((row) => ideaRecord(row, voted.has(row.id)));
  return {
    ideas: list,
    sort: query.sort,
    limit: query.limit,
    offset: query.offset,
    nextOffset: rows.length > query.limit ? query.offset + query.limit : null,
  };
}
