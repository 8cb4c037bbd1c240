// Vote toggles: add the caller's vote if absent, remove it if present, then recount from the vote rows in the
// same batch (a recount, not +1/-1, so two racing toggles can never leave the stored count wrong).
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { enrichmentVotes, enrichments, ideaVotes, ideas } from "../db/schema/ideas.ts";
import { notFound } from "../http/errors.ts";

export interface VoteState {
  voted: boolean;
  votes: number;
}

export async function toggleIdeaVote(db: Db, ideaId: number, voter: string): Promise<VoteState> {
  const idea = await db.select({ id: ideas.id }).from(ideas).where(eq(ideas.id, ideaId)).get();
  if (!idea) throw notFound("no such idea");
  const mine = and(eq(ideaVotes.ideaId, ideaId), eq(ideaVotes.voter, voter));
  const existing = await db.select({ voter: ideaVotes.voter }).from(ideaVotes).where(mine).get();
  const change = existing
    ? db.delete(ideaVotes).where(mine)
    : db.insert(ideaVotes).values({ ideaId, voter, createdAt: Date.now() }).onConflictDoNothing();
  const [, updated] = await db.batch([
    change,
    db
      .update(ideas)
      .set({ votes: sql`(SELECT count(*) FROM ${ideaVotes} WHERE ${ideaVotes.ideaId} = ${ideaId})` })
      .where(eq(ideas.id, ideaId))
      .returning({ votes: ideas.votes }),
  ]);
  return { voted: !existing, votes: updated[0]?.votes ?? 0 };
}

export async function toggleEnrichmentVote(db: Db, enrichmentId: number, voter: string): Promise<VoteState> {
  const row = await db.select({ id: enrichments.id }).from(enrichments).where(eq(enrichments.id, enrichmentId)).get();
  if (!row) throw notFound("no such enrichment");
  const mine = and(eq(enrichmentVotes.enrichmentId, enrichmentId), eq(enrichmentVotes.voter, voter));
  const existing = await db.select({ voter: enrichmentVotes.voter }).from(enrichmentVotes).where(mine).get();
  const change = existing
    ? db.delete(enrichmentVotes).where(mine)
    : db.insert(enrichmentVotes).values({ enrichmentId, voter, createdAt: Date.now() }).onConflictDoNothing();
  const [, updated] = await db.batch([
    change,
    db
      .update(enrichments)
      .set({ votes: sql`(SELECT count(*) FROM ${enrichmentVotes} WHERE ${enrichmentVotes.enrichmentId} = ${enrichmentId})` })
      .where(eq(enrichments.id, enrichmentId))
      .returning({ votes: enrichments.votes }),
  ]);
  return { voted: !existing, votes: updated[0]?.votes ?? 0 };
}
