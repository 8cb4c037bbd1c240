// Names a person reads — file paths, project names — must look like what they are. A control character breaks
// headers, logs and listings; a bidirectional control (U+202E RIGHT-TO-LEFT OVERRIDE) makes "cod.exe.txt" show as
// "cod.txt.exe"; a zero-width or other invisible character makes two different names look the same.
//
// Refused: Unicode categories Cc (C0, DEL, C1), Cf (format: bidirectional controls, zero-width space and joiners,
// soft hyphen, byte-order mark, word joiner and invisible operators, Mongolian vowel separator, tags), Zl and Zp
// (line and paragraph separators), Cs (a lone surrogate, which cannot even be percent-encoded), and everything
// else Unicode marks Default_Ignorable_Code_Point (Hangul fillers, combining grapheme joiner, ...).
// Kept: variation selectors (Unicode's Variation_Selector: U+FE00–U+FE0F, U+E0100–U+E01EF, the Mongolian ones),
// because they pick a glyph's presentation ("❤️" is U+2764 U+FE0F) and never hide or reorder text. Ordinary
// spaces, including no-break and ideographic spaces, are visible and kept.

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;
const VARIATION_SELECTOR = /\p{Variation_Selector}/u;
const CONTROL = /\p{Cc}/u;
const SEPARATOR = /[\p{Zl}\p{Zp}]/u;
const SURROGATE = /\p{Cs}/u;

/** The Unicode bidirectional formatting characters: embeddings, overrides, isolates and the three marks. */
const BIDI_CONTROLS = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

export interface InvisibleCharacter {
  /** "U+202E" */
  codePoint: string;
  /** What kind of character it is, for the error message: "a bidirectional control character". */
  kind: string;
  /** Index (in UTF-16 code units) of the character in the text. */
  index: number;
}

function kindOf(char: string, cp: number): string {
  if (CONTROL.test(char)) return "a control character";
  if (BIDI_CONTROLS.has(cp)) return "a bidirectional control character";
  if (SEPARATOR.test(char)) return "a line or paragraph separator";
  if (SURROGATE.test(char)) return "a lone surrogate (not valid Unicode text)";
  return "an invisible formatting character";
}

/** The first refused character in `text`, or null when every character is one a reader can see. */
export function findInvisibleCharacter(text: string): InvisibleCharacter | null {
  let index = 0;
  for (const char of text) {
    if (INVISIBLE.test(char) && !VARIATION_SELECTOR.test(char)) {
      const cp = char.codePointAt(0) ?? 0;
      return { codePoint: `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`, kind: kindOf(char, cp), index };
    }
    index += char.length;
  }
  return null;
}

/** "contains a bidirectional control character (U+202E)", or null when the text is fine. */
export function invisibleCharacterProblem(text: string): string | null {
  const found = findInvisibleCharacter(text);
  return found ? `contains ${found.kind} (${found.codePoint})` : null;
}
