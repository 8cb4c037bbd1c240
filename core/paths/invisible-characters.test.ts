import { describe, expect, it } from "vitest";
import { findInvisibleCharacter, invisibleCharacterProblem } from "./invisible-characters.ts";
import { checkProjectPath } from "./project-path.ts";

/** [name of the character, code point, the kind the message must name] */
const REFUSED: [string, number, RegExp][] = [
  ["NUL", 0x0000, /control/],
  ["BEL", 0x0007, /control/],
  ["TAB", 0x0009, /control/],
  ["LF", 0x000a, /control/],
  ["ESC", 0x001b, /control/],
  ["DEL", 0x007f, /control/],
  ["C1 NEL", 0x0085, /control/],
  ["C1 CSI", 0x009b, /control/],
  ["ARABIC LETTER MARK", 0x061c, /bidirectional/],
  ["LEFT-TO-RIGHT MARK", 0x200e, /bidirectional/],
  ["RIGHT-TO-LEFT MARK", 0x200f, /bidirectional/],
  ["LEFT-TO-RIGHT EMBEDDING", 0x202a, /bidirectional/],
  ["RIGHT-TO-LEFT EMBEDDING", 0x202b, /bidirectional/],
  ["POP DIRECTIONAL FORMATTING", 0x202c, /bidirectional/],
  ["LEFT-TO-RIGHT OVERRIDE", 0x202d, /bidirectional/],
  ["RIGHT-TO-LEFT OVERRIDE", 0x202e, /bidirectional/],
  ["LEFT-TO-RIGHT ISOLATE", 0x2066, /bidirectional/],
  ["RIGHT-TO-LEFT ISOLATE", 0x2067, /bidirectional/],
  ["FIRST STRONG ISOLATE", 0x2068, /bidirectional/],
  ["POP DIRECTIONAL ISOLATE", 0x2069, /bidirectional/],
  ["LINE SEPARATOR", 0x2028, /line or paragraph/],
  ["PARAGRAPH SEPARATOR", 0x2029, /line or paragraph/],
  ["SOFT HYPHEN", 0x00ad, /invisible/],
  ["COMBINING GRAPHEME JOINER", 0x034f, /invisible/],
  ["HANGUL CHOSEONG FILLER", 0x115f, /invisible/],
  ["MONGOLIAN VOWEL SEPARATOR", 0x180e, /invisible/],
  ["ZERO WIDTH SPACE", 0x200b, /invisible/],
  ["ZERO WIDTH NON-JOINER", 0x200c, /invisible/],
  ["ZERO WIDTH JOINER", 0x200d, /invisible/],
  ["WORD JOINER", 0x2060, /invisible/],
  ["INVISIBLE TIMES", 0x2062, /invisible/],
  ["INVISIBLE PLUS", 0x2064, /invisible/],
  ["HANGUL FILLER", 0x3164, /invisible/],
  ["ZERO WIDTH NO-BREAK SPACE (BOM)", 0xfeff, /invisible/],
  ["HALFWIDTH HANGUL FILLER", 0xffa0, /invisible/],
  ["INTERLINEAR ANNOTATION ANCHOR", 0xfff9, /invisible/],
  ["MUSICAL SYMBOL BEGIN BEAM", 0x1d173, /invisible/],
  ["LANGUAGE TAG", 0xe0001, /invisible/],
  ["TAG LATIN SMALL LETTER A", 0xe0061, /invisible/],
];

const ALLOWED = [
  "intro.html",
  "My First Video",
  "Ça va — très bien",
  "東京の夜",
  "שלום עולם", // right-to-left text itself is fine; only the invisible controls are not
  "مرحبا",
  "love ❤️", // U+2764 U+FE0F: a variation selector picks the emoji glyph
  "辻󠄀", // U+8FBB U+E0100: an ideographic variation selector
  "no\u00a0break and\u3000ideographic spaces",
  "math ∑ and arrows →",
];

describe("findInvisibleCharacter", () => {
  it.each(REFUSED)("refuses %s", (_, cp, kind) => {
    const char = String.fromCodePoint(cp);
    const found = findInvisibleCharacter(`cod${char}e.txt`);
    expect(found).toEqual({ codePoint: `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`, kind: expect.stringMatching(kind), index: 3 });
  });

  it("refuses a lone surrogate, which could not even be percent-encoded", () => {
    expect(invisibleCharacterProblem("a\ud800b")).toBe("contains a lone surrogate (not valid Unicode text) (U+D800)");
  });

  it.each(ALLOWED)("keeps %j", (text) => {
    expect(findInvisibleCharacter(text)).toBeNull();
  });

  it("names the first one, so the message says what to remove", () => {
    expect(invisibleCharacterProblem("invoice\u202etxt.exe")).toBe("contains a bidirectional control character (U+202E)");
  });
});

describe("checkProjectPath refuses them in every spelling a URL can carry", () => {
  it.each(REFUSED.filter(([, cp]) => cp !== 0))("%s, percent-encoded", (_, cp) => {
    const encoded = `assets/a${encodeURIComponent(String.fromCodePoint(cp))}b.txt`;
    const check = checkProjectPath(encoded);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.error).toMatch(/^path contains /);
  });

  it.each(ALLOWED)("keeps %j", (name) => {
    expect(checkProjectPath(encodeURIComponent(name))).toEqual({ ok: true, path: name, isDirectory: false });
  });
});
