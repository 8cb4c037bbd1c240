// Builds the FTS5 MATCH expression that picks duplicate candidates. The index holds the same canonical stems
// (stemsOf), so a rewording with synonyms or another plural already meets here; a typo meets through the prefix
// of its first letters, which the index keeps (prefix='4').
import { isGeneric } from "./word-lists.ts";
import { type Term, termsOf } from "./terms-of.ts";

/** The stems a title's candidate query may use, for looking up which ones the index already holds. */
export function queryStemsOf(title: string): string[] {
  return [...new Set(termsOf(title).flatMap((t) => [t.stem, ...t.forms]))].slice(0, 40);
}

/** Prefix length for typo-tolerant candidates; must match the prefix option of the ideas_fts table. */
export const FTS_PREFIX = 4;

/** A title's five rarest specific stems are plenty to find its duplicates; more only slows the query. */
const MAX_TERMS = 5;
/** A stem in more ideas than this is common (see the three-shared-words rule below). */
const COMMON_DOCS = 1000;

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Candidates must share at least two of the title's specific stems (each stem also as a prefix when long enough
 * to carry a typo after its start, unless `docCounts` says the index already has that exact stem, i.e. it is
 * spelled the way other ideas spell it): an OR of every pair. A duplicate always shares two words, and requiring two
 * keeps the matched set (and the bm25 ranking over it) small on a large board. Titles with a single specific
 * stem match on that stem alone. Null when the title has no words at all.
 */
export function ftsCandidateQuery(title: string, docCounts?: ReadonlyMap<string, number>): string | null {
  const terms = termsOf(title);
  const specific = terms.filter((t) => !t.forms.every((f) => isGeneric(f)));
  // The rarest stems first: they say the most about an idea and have the shortest posting lists, so the query
  // and its bm25 ranking touch few rows. Unknown stems (typos) count as rare.
  const rarity = (t: Term) => Math.min(...[t.stem, ...t.forms].map((f) => docCounts?.get(f) ?? 0));
  const pool = specific.length > 0 ? specific : terms;
  const chosen = docCounts ? [...pool].sort((a, b) => rarity(a) - rarity(b)).slice(0, MAX_TERMS) : pool.slice(0, MAX_TERMS);
  if (chosen.length === 0) return null;
  const groups = chosen.map((term) => {
    const parts = new Set<string>();
    for (const stem of new Set([term.stem, ...term.forms])) {
      parts.add(quote(stem));
      const maybeTypo = !docCounts?.has(stem);
      if (maybeTypo && stem.length > FTS_PREFIX + 1 && !/\d/.test(stem)) parts.add(`${quote(stem.slice(0, FTS_PREFIX))}*`);
    }
    return `(${[...parts].join(" OR ")})`;
  });
  if (groups.length === 1) return `title_terms : ${groups[0]}`;
  // When even the third-rarest word is common, pairs match thousands of ideas; a long title's duplicate shares
  // at least three of its five rarest words, so ask for three.
  const third = chosen[2];
  const shared = chosen.length >= 4 && third && rarity(third) > COMMON_DOCS ? 3 : 2;
  const combos: string[] = [];
  const pick = (start: number, taken: string[]) => {
    if (taken.length === shared) return void combos.push(`(${taken.join(" AND ")})`);
    for (let i = start; i < groups.length; i++) pick(i + 1, [...taken, groups[i] ?? ""]);
  };
  pick(0, []);
  return `title_terms : (${combos.join(" OR ")})`;
}
