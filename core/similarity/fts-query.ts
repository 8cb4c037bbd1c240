// Builds the FTS5 MATCH expression that picks duplicate candidates. The index holds the same canonical stems
// (stemsOf), so a rewording with synonyms or another plural already meets here; a typo meets through the prefix
// of its first letters, which the index keeps (prefix='4').
import { GENERIC } from "./word-lists.ts";
import { termsOf } from "./terms-of.ts";

/** The stems a title's candidate query may use, for looking up which ones the index already holds. */
export function queryStemsOf(title: string): string[] {
  return [...new Set(termsOf(title).flatMap((t) => [t.stem, ...t.forms]))].slice(0, 2 * MAX_TERMS);
}

/** Prefix length for typo-tolerant candidates; must match the prefix option of the ideas_fts table. */
export const FTS_PREFIX = 4;

/** A title's first eight specific stems are plenty to find its duplicates; more only slows the query. */
const MAX_TERMS = 8;

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Candidates must share at least two of the title's specific stems (each stem also as a prefix when long enough
 * to carry a typo after its start, unless `known` says the index already has that exact stem, i.e. it is
 * spelled the way other ideas spell it): an OR of every pair. A duplicate always shares two words, and requiring two
 * keeps the matched set (and the bm25 ranking over it) small on a large board. Titles with a single specific
 * stem match on that stem alone. Null when the title has no words at all.
 */
export function ftsCandidateQuery(title: string, known?: ReadonlySet<string>): string | null {
  const terms = termsOf(title);
  const specific = terms.filter((t) => !t.forms.every((f) => GENERIC.has(f)));
  const chosen = (specific.length > 0 ? specific : terms).slice(0, MAX_TERMS);
  if (chosen.length === 0) return null;
  const groups = chosen.map((term) => {
    const parts = new Set<string>();
    for (const stem of new Set([term.stem, ...term.forms])) {
      parts.add(quote(stem));
      const maybeTypo = !known || !known.has(stem);
      if (maybeTypo && stem.length > FTS_PREFIX + 1 && !/\d/.test(stem)) parts.add(`${quote(stem.slice(0, FTS_PREFIX))}*`);
    }
    return `(${[...parts].join(" OR ")})`;
  });
  if (groups.length === 1) return `title_terms : ${groups[0]}`;
  const pairs: string[] = [];
  for (let i = 0; i < groups.length; i++) {
    for (let j = i + 1; j < groups.length; j++) pairs.push(`(${groups[i]} AND ${groups[j]})`);
  }
  return `title_terms : (${pairs.join(" OR ")})`;
}
