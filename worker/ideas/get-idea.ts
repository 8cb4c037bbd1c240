// One idea with its enrichments (best voted first) and comments (oldest first), `voted` for the caller.
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { enrichmentVotes, enrichments, ideaComments, ideas } from "../db/schema/ideas.ts";
import { notFound } from "../http/errors.ts";
import { votedIdeaIds } from "./list-ideas.ts";
import { commentRecord, enrichmentRecord, ideaRecord } from "./records.ts";

export async function requireIdeaRow(db: Db, id: number) {
  const row = await db.select().from(ideas).where(eq(ideas.id, id)).get();
  if (!row) throw notFound("no such idea");
  return row;
}

export async function ideaRecordFor(db: Db, id: number, voter: string | null) {
  const row = await requireIdeaRow(db, id);
  return ideaRecord(row, (await votedIdeaIds(db, voter, [id])).has(id));
}

export async function getIdea(db: Db, id: number, voter: string | null) {
  const [idea, enrichmentRows, commentRows] = await Promise.all([
    ideaRecordFor(db, id, voter),
    db.select().from(enrichments).where(eq(enrichments.ideaId, id)).orderBy(desc(enrichments.votes), asc(enrichments.id)).all(),
    db.select().from(ideaComments).where(eq(ideaComments.ideaId, id)).orderBy(asc(ideaComments.id)).all(),
  ]);
  const ids = enrichmentRows.map((e) => e.id);
  const mine =
    voter && ids.length
      ? new Set(
          (
            await db
              .select({ id: enrichmentVotes.enrichmentId })
              .from(enrichmentVotes)
              .where(and(eq(enrichmentVotes.voter, voter), inArray(enrichmentVotes.enrichmentId, ids)))
              .all()
          ).map((r) => r.id),
        )
      : new Set<number>();
  return {
    idea,
    enrichments: enrichmentRows.map((e) => enrichmentRecord(e, mine.has(e.id))),
    comments: commentRows.map(commentRecord),
  };
}
