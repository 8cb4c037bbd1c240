// Builds the FTS5 MATCH expression that picks duplicate candidates. The index holds the same canonical stems
// (stemsOf), so a rewording with synonyms or another plural already meets here; a typo meets through the prefix
// of its first letters, which the index keeps (prefix='4').
import { GENERIC } from "./word-lists.ts";
import { termsOf } from "./terms-of.ts";

/** Prefix length for typo-tolerant candidates; must match the prefix option of the ideas_fts table. */
export const FTS_PREFIX = 4;

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * An OR of the title's stems (generic words left out unless nothing else is left), each also as a 4-letter
 * prefix query when long enough to carry a typo after its start. Null when the title has no words at all.
 */
export function ftsCandidateQuery(title: string): string | null {
  const terms = termsOf(title);
  const specific = terms.filter((t) => !t.forms.every((f) => GENERIC.has(f)));
  const chosen = specific.length > 0 ? specific : terms;
  if (chosen.length === 0) return null;
  const parts = new Set<string>();
  for (const term of chosen) {
    for (const stem of new Set([term.stem, ...term.forms])) {
      parts.add(quote(stem));
      if (stem.length > FTS_PREFIX + 1 && !/\d/.test(stem)) parts.add(`${quote(stem.slice(0, FTS_PREFIX))}*`);
    }
  }
  return `title_terms : (${[...parts].join(" OR ")})`;
}
