// The similarity of two ideas, 0..1: a soft weighted Jaccard of their title terms, blended with that of their
// bodies when both have one. "Soft" because a term may match a term of the other side that is one typo away.
import { type Term, termsOf } from "./terms-of.ts";
import { typoBudget, typoDistance } from "./typo-distance.ts";

export interface IdeaText {
  title: string;
  body?: string | undefined;
}

/** How much a near (typo) match is worth against an exact one. */
const TYPO_MATCH = 0.85;
/** Share of the title in the blended score when both bodies are long enough to say something. */
const TITLE_SHARE = 0.7;
/** A body needs this many distinct terms before it is compared at all. */
const MIN_BODY_TERMS = 4;

function closeness(a: Term, b: Term): number {
  if (a.stem === b.stem) return 1;
  for (const x of a.forms) {
    for (const y of b.forms) {
      const budget = typoBudget(Math.min(x.length, y.length));
      if (budget > 0 && !/\d/.test(x + y) && typoDistance(x, y, budget) <= budget) return TYPO_MATCH;
    }
  }
  return 0;
}

/** Weighted Jaccard where each term of `a` pairs with its best unused partner in `b`. */
export function softJaccard(a: Term[], b: Term[]): number {
  const total = a.reduce((s, t) => s + t.weight, 0) + b.reduce((s, t) => s + t.weight, 0);
  if (total === 0) return 0;
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  let shared = 0;
  // Exact matches first so a typo match never takes a partner that another term matches exactly.
  for (const exactOnly of [true, false]) {
    a.forEach((ta, i) => {
      if (usedA.has(i)) return;
      let best = -1;
      let bestScore = 0;
      b.forEach((tb, j) => {
        if (usedB.has(j)) return;
        const s = exactOnly ? (ta.stem === tb.stem ? 1 : 0) : closeness(ta, tb);
        if (s > bestScore) [best, bestScore] = [j, s];
      });
      const partner = b[best];
      if (!partner) return;
      usedA.add(i);
      usedB.add(best);
      shared += bestScore * Math.min(ta.weight, partner.weight);
    });
  }
  return shared / (total - shared);
}

/** Precomputed terms of one idea, so a candidate list is tokenised once. */
export interface IdeaTerms {
  title: Term[];
  body: Term[];
}

export function ideaTerms(idea: IdeaText): IdeaTerms {
  return { title: termsOf(idea.title), body: termsOf(idea.body ?? "") };
}

/**
 * A candidate's terms for scoring against `query`: its body is only tokenised when the query's body is long
 * enough to be compared at all, which for a title typed alone (the live check) saves most of the work.
 */
export function candidateTerms(query: IdeaTerms, candidate: IdeaText): IdeaTerms {
  return query.body.length < MIN_BODY_TERMS ? { title: termsOf(candidate.title), body: [] } : ideaTerms(candidate);
}

export function scoreTerms(a: IdeaTerms, b: IdeaTerms): number {
  const title = softJaccard(a.title, b.title);
  if (a.body.length < MIN_BODY_TERMS || b.body.length < MIN_BODY_TERMS) return title;
  const body = softJaccard(a.body, b.body);
  return TITLE_SHARE * title + (1 - TITLE_SHARE) * body;
}

/** Similarity of two ideas, 0 (nothing shared) to 1 (same terms). */
export function scoreSimilarity(a: IdeaText, b: IdeaText): number {
  return scoreTerms(ideaTerms(a), ideaTerms(b));
}
