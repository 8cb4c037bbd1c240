// Duplicate candidates: FTS5 picks up to CANDIDATES ideas sharing title stems (or typo-tolerant prefixes of
// them), newest first, then the pure scorer in core/similarity decides and orders. The index holds stems, so the
// query does too. No bm25 ranking: on 100,000 ideas it cost 20x the match itself (34 ms against 1.5 ms median),
// and the scorer re-ranks anyway. Newest first because a repeat is most often of a recent idea.
import { getTableColumns, sql } from "drizzle-orm";
import { ftsCandidateQuery, queryStemsOf } from "../../core/similarity/fts-query.ts";
import { candidateTerms, ideaTerms, scoreTerms } from "../../core/similarity/score-similarity.ts";
import { SIMILAR_THRESHOLD } from "../../core/similarity/thresholds.ts";
import type { Db } from "../db/client.ts";
import { ideas } from "../db/schema/ideas.ts";
import { ideaVotedBy } from "./caller-columns.ts";

/** Enough to hold every plausible duplicate on a large board; each costs one scoring pass (tens of microseconds). */
const CANDIDATES = 200;

type IdeaRow = typeof ideas.$inferSelect;

export interface SimilarIdea {
  /** The idea, with whether `voter` voted for it (read in the same query). */
  row: IdeaRow & { voted: boolean };
  score: number;
}

/** Ideas scoring at least SIMILAR_THRESHOLD against the text, best first; `voted` is about `voter` (a person). */
export async function findSimilar(db: Db, text: { title: string; body?: string | undefined }, voter: string | null): Promise<SimilarIdea[]> {
  const stems = queryStemsOf(text.title);
  if (stems.length === 0) return [];
  const known = await db.all<{ term: string; doc: number }>(
    sql`SELECT term, doc FROM ideas_fts_vocab WHERE term IN (${sql.join(stems.map((s) => sql`${s}`), sql`, `)})`,
  );
  const match = ftsCandidateQuery(text.title, new Map(known.map((k) => [k.term, k.doc])));
  if (!match) return [];
  const rows = await db
    .select({ ...getTableColumns(ideas), voted: ideaVotedBy(voter) })
    .from(ideas)
    .where(sql`${ideas.id} IN (SELECT rowid FROM ideas_fts WHERE ideas_fts MATCH ${match} ORDER BY rowid DESC LIMIT ${CANDIDATES})`)
    .all();
  const mine = ideaTerms(text);
  return rows
    .map((row) => ({ row, score: Math.round(scoreTerms(mine, candidateTerms(mine, row)) * 1000) / 1000 }))
    .filter((s) => s.score >= SIMILAR_THRESHOLD)
    .sort((a, b) => b.score - a.score || b.row.votes - a.row.votes);
}
