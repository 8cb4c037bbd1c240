// One idea with its enrichments (best voted first) and comments (oldest first), `voted` for the caller.
import { asc, desc, eq, getTableColumns } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { enrichments, ideaComments, ideas } from "../db/schema/ideas.ts";
import { notFound } from "../http/errors.ts";
import { enrichmentVotedBy, ideaVotedBy } from "./caller-columns.ts";
import type { ListCaller } from "./list-ideas.ts";
import { commentRecord, enrichmentRecord, ideaRecord } from "./records.ts";

/**
 * The idea, its enrichments and its comments with `voted` and `mine` for the caller, in one batch (one round trip):
 * the caller's votes are columns of the same queries and `mine` is read off each row's author.
 */
export async function getIdea(db: Db, id: number, caller: ListCaller) {
  const [ideaRows, enrichmentRows, commentRows] = await db.batch([
    db.select({ ...getTableColumns(ideas), voted: ideaVotedBy(caller.voter) }).from(ideas).where(eq(ideas.id, id)).limit(1),
    db
      .select({ ...getTableColumns(enrichments), voted: enrichmentVotedBy(caller.voter) })
      .from(enrichments)
      .where(eq(enrichments.ideaId, id))
      .orderBy(desc(enrichments.votes), asc(enrichments.id)),
    db.select().from(ideaComments).where(eq(ideaComments.ideaId, id)).orderBy(asc(ideaComments.id)),
  ]);
  const row = ideaRows[0];
  if (!row) throw notFound("no such idea");
  const mine = (author: string) => caller.key !== null && author === caller.key;
  return {
    idea: { ...ideaRecord(row, row.voted), mine: mine(row.author) },
    enrichments: enrichmentRows.map((e) => enrichmentRecord(e, e.voted)),
    comments: commentRows.map((c) => ({ ...commentRecord(c), mine: mine(c.author) })),
  };
}
