// Text -> weighted terms: lower case, accents folded, split on anything that is not a letter or digit, stopwords
// dropped, stemmed, synonyms folded to one canonical stem.
import { stemWord } from "./stem-word.ts";
import { canonicalOf, GENERIC_WEIGHT, isGeneric, STOPWORDS } from "./word-lists.ts";

export interface Term {
  /** Canonical stem (synonyms folded). */
  stem: string;
  /** Stems as written before folding synonyms, so a typo of a synonym ("subtitels") still finds its word. */
  forms: string[];
  weight: number;
}

/** Words of a text, lower case, accents removed ("Café" -> "cafe"). Apostrophes join ("don't" -> "dont"). */
export function wordsOf(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** [stem as written, canonical stem] per meaningful word, in order, repeats kept. */
function stemPairsOf(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const word of wordsOf(text)) {
    if (STOPWORDS.has(word) || word.length < 2) continue;
    const stem = stemWord(word);
    out.push([stem, canonicalOf(stem)]);
  }
  return out;
}

/** Canonical stems of a text, in order, repeats kept: what the full-text index stores and is queried with. */
export function stemsOf(text: string): string[] {
  return stemPairsOf(text).map(([, canonical]) => canonical);
}

/**
 * What the full-text index stores for a text: every canonical stem, plus the stem as written when it differs, so
 * a prefix query from a typo of a synonym ("subtitel") still reaches the idea that wrote "subtitles".
 */
export function indexStemsOf(text: string): string {
  const out = new Set<string>();
  for (const [form, canonical] of stemPairsOf(text)) {
    out.add(canonical);
    out.add(form);
  }
  return [...out].join(" ");
}

/** Distinct terms with their weights: generic words of the board count for less. */
export function termsOf(text: string): Term[] {
  const seen = new Map<string, Term>();
  for (const [form, stem] of stemPairsOf(text)) {
    const term = seen.get(stem);
    if (term) {
      if (!term.forms.includes(form)) term.forms.push(form);
    } else {
      seen.set(stem, { stem, forms: [form], weight: isGeneric(form) ? GENERIC_WEIGHT : 1 });
    }
  }
  return [...seen.values()];
}
