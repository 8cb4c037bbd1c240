// A small suffix-stripping stemmer. It only has to be consistent, not linguistically right: both sides of a
// comparison go through it, so "captions", "captioning" and "captioned" must meet at one stem.

const KEEP = new Set(["this", "has", "was", "is", "us", "its", "news", "series", "status", "canvas", "alias", "gas"]);

function undouble(stem: string): string {
  // running -> runn -> run, but keep "ll"/"ss"/"zz" (install, pass) which are usually part of the root.
  const last = stem.at(-1);
  if (stem.length > 3 && last === stem.at(-2) && last !== undefined && !"lsz".includes(last)) return stem.slice(0, -1);
  return stem;
}

function stripPlural(word: string): string {
  if (KEEP.has(word) || word.length <= 3) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (/(x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function stripDerivation(word: string): string {
  if (word.length <= 4) return word;
  if (word.endsWith("ically")) return word.slice(0, -4);
  if (word.endsWith("ation") && word.length > 7) return word.slice(0, -3);
  if (word.endsWith("ing") && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 4 && !word.endsWith("eed")) return undouble(word.slice(0, -2));
  if (word.endsWith("ly") && word.length > 5) return word.slice(0, -2);
  if (word.endsWith("able") && word.length > 7) return word.slice(0, -4);
  if (word.endsWith("ise")) return `${word.slice(0, -3)}ize`;
  return word;
}

/** Reduces an English word (already lower case) to a comparison stem. */
export function stemWord(word: string): string {
  if (/\d/.test(word)) return word; // mp4, h264, 4k: never touch
  let stem = stripDerivation(stripPlural(word));
  // A trailing "e" is dropped last so generate/generating/generation all meet at "generat".
  if (stem.length > 4 && stem.endsWith("e") && !stem.endsWith("ee")) stem = stem.slice(0, -1);
  return stem;
}
