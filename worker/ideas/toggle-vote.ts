// Vote toggles: add the caller's vote if absent, remove it if present, then recount from the vote rows in the
// same batch (a recount, not +1/-1, so two racing toggles can never leave the stored count wrong). The vote is the
// person's (`writer.person`), whichever of their credentials cast it; `castBy` records which one did.
// A bot's vote only ever adds: the seed tells a bot that gets a 409 to vote for the existing idea, and since the
// vote is its owner's, a toggle would take back the vote the owner had already cast. So a bot voting for an idea
// (or enrichment) the person already voted for changes nothing and answers voted: true; only the person (their
// token or the dashboard) takes a vote back.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { Writer } from "./caller.ts";
import { enrichmentVotes, enrichments, ideaVotes, ideas } from "../db/schema/ideas.ts";
import { notFound } from "../http/errors.ts";

export interface VoteState {
  voted: boolean;
  votes: number;
}

type Voter = Pick<Writer, "key" | "person" | "isBot">;

export async function toggleIdeaVote(db: Db, ideaId: number, writer: Voter): Promise<VoteState> {
  const voter = writer.person;
  const mine = and(eq(ideaVotes.ideaId, ideaId), eq(ideaVotes.voter, voter));
  // The idea and the caller's vote in one round trip.
  const [[idea], [existing]] = await db.batch([
    db.select({ id: ideas.id, votes: ideas.votes }).from(ideas).where(eq(ideas.id, ideaId)).limit(1),
    db.select({ voter: ideaVotes.voter }).from(ideaVotes).where(mine).limit(1),
  ]);
  if (!idea) throw notFound("no such idea");
  if (existing && writer.isBot) return { voted: true, votes: idea.votes };
  const change = existing
    ? db.delete(ideaVotes).where(mine)
    : db.insert(ideaVotes).values({ ideaId, voter, castBy: writer.key, createdAt: Date.now() }).onConflictDoNothing();
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

export async function toggleEnrichmentVote(db: Db, enrichmentId: number, writer: Voter): Promise<VoteState> {
  const voter = writer.person;
  const mine = and(eq(enrichmentVotes.enrichmentId, enrichmentId), eq(enrichmentVotes.voter, voter));
  // The enrichment and the caller's vote in one round trip.
  const [[row], [existing]] = await db.batch([
    db.select({ id: enrichments.id, votes: enrichments.votes }).from(enrichments).where(eq(enrichments.id, enrichmentId)).limit(1),
    db.select({ voter: enrichmentVotes.voter }).from(enrichmentVotes).where(mine).limit(1),
  ]);
  if (!row) throw notFound("no such enrichment");
  if (existing && writer.isBot) return { voted: true, votes: row.votes };
  const change = existing
    ? db.delete(enrichmentVotes).where(mine)
    : db.insert(enrichmentVotes).values({ enrichmentId, voter, castBy: writer.key, createdAt: Date.now() }).onConflictDoNothing();
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
