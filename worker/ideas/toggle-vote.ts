// Vote toggles: add the caller's vote if absent, remove it if present, then recount from the vote rows (a recount,
// not +1/-1, so two racing toggles can never leave the stored count wrong). The vote is the person's
// (`writer.person`), whichever of their credentials cast it; `castBy` records which one did.
// A bot's vote only ever adds: the seed tells a bot that gets a 409 to vote for the existing idea, and since the
// vote is its owner's, a toggle would take back the vote the owner had already cast. So a bot voting for an idea
// (or enrichment) the person already voted for changes nothing and answers voted: true; only the person (their
// token or the dashboard) takes a vote back.
//
// One batch, one round trip (with the rate-limit spend, board-batch.ts), decided in SQL rather than by reading first:
// the insert adds the vote when the target exists and the person has none; the delete then takes the vote back
// only when that insert added nothing (`changes()` is the row count of the batch's previous write); the last
// statement reads the count and whether the person's vote is there now. D1 runs the batch as one transaction.
import { and, eq, sql } from "drizzle-orm";
import { enrichmentVotes, enrichments, ideaVotes, ideas } from "../db/schema/ideas.ts";
import { notFound } from "../http/errors.ts";
import type { BoardWrite } from "./board-batch.ts";
import type { Writer } from "./caller.ts";

export interface VoteState {
  voted: boolean;
  votes: number;
}

type Voter = Pick<Writer, "key" | "person" | "isBot">;

/** What can be voted for: the table and its votes table (whose columns are: the row's id, voter, cast_by, created_at). */
interface Votable {
  what: string;
  table: typeof ideas | typeof enrichments;
  votes: typeof ideaVotes | typeof enrichmentVotes;
  /** The votes' column naming the row. */
  key: typeof ideaVotes.ideaId | typeof enrichmentVotes.enrichmentId;
}

const IDEA: Votable = { what: "idea", table: ideas, votes: ideaVotes, key: ideaVotes.ideaId };
const ENRICHMENT: Votable = { what: "enrichment", table: enrichments, votes: enrichmentVotes, key: enrichmentVotes.enrichmentId };

async function toggleVote({ db, batch }: BoardWrite, on: Votable, id: number, writer: Voter): Promise<VoteState> {
  const { table, votes, key } = on;
  const voter = writer.person;
  const mine = and(eq(key, id), eq(votes.voter, voter));
  // The select names the votes table's columns in their order: the row, voter, cast_by, created_at.
  const add = db
    .insert(votes)
    .select(sql`SELECT ${table.id}, ${voter}, ${writer.key}, ${Date.now()} FROM ${table} WHERE ${table.id} = ${id}`)
    .onConflictDoNothing();
  const takeBack = db.delete(votes).where(and(mine, sql`changes() = 0`));
  const recount = db
    .update(table)
    .set({ votes: sql`(SELECT count(*) FROM ${votes} WHERE ${key} = ${id})` })
    .where(eq(table.id, id));
  const state = db
    .select({ votes: table.votes, voted: sql<number>`EXISTS (SELECT 1 FROM ${votes} WHERE ${mine})` })
    .from(table)
    .where(eq(table.id, id));
  const [row] = writer.isBot ? (await batch([add, recount, state]))[2] : (await batch([add, takeBack, recount, state]))[3];
  if (!row) throw notFound(`no such ${on.what}`);
  return { votes: row.votes, voted: row.voted === 1 };
}

export function toggleIdeaVote(write: BoardWrite, ideaId: number, writer: Voter): Promise<VoteState> {
  return toggleVote(write, IDEA, ideaId, writer);
}

export function toggleEnrichmentVote(write: BoardWrite, enrichmentId: number, writer: Voter): Promise<VoteState> {
  return toggleVote(write, ENRICHMENT, enrichmentId, writer);
}
