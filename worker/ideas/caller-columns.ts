// Columns about the caller, computed in the same query as the rows they describe (no second round trip): whether
// the caller has voted for an idea or an enrichment. `mine` needs no query: the rows carry their author.
import { sql, type SQL } from "drizzle-orm";
import { enrichmentVotes, enrichments, ideaVotes, ideas } from "../db/schema/ideas.ts";

/** Whether `voter` (a person, "user:<id>") voted for the idea of the row; false for anonymous readers. */
export function ideaVotedBy(voter: string | null): SQL.Aliased<boolean> {
  const voted = voter ? sql`EXISTS (SELECT 1 FROM ${ideaVotes} WHERE ${ideaVotes.ideaId} = ${ideas.id} AND ${ideaVotes.voter} = ${voter})` : sql`0`;
  return voted.mapWith(Boolean).as("voted");
}

/** Whether `voter` voted for the enrichment of the row. */
export function enrichmentVotedBy(voter: string | null): SQL.Aliased<boolean> {
  const voted = voter
    ? sql`EXISTS (SELECT 1 FROM ${enrichmentVotes} WHERE ${enrichmentVotes.enrichmentId} = ${enrichments.id} AND ${enrichmentVotes.voter} = ${voter})`
    : sql`0`;
  return voted.mapWith(Boolean).as("voted");
}
