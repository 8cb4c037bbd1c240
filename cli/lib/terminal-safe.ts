// Text from the studio (lint findings, render log lines, error messages, names) is written by whoever wrote the
// composition, so before the CLI prints it every terminal control is taken out: an escape sequence can set the
// window title, clear the screen, move the cursor to overwrite earlier lines or (OSC 52) write the clipboard; a
// bare \r lets text overwrite its own line; C1 controls are 8-bit escape sequences (U+009B is CSI) in terminals
// that honour them; bidirectional controls (U+202E) reorder what is shown.
//
// Node's util.stripVTControlCharacters is not enough: it removes only the escape sequences its pattern knows
// (a DCS string keeps its payload and its ESC \ terminator) and leaves bare C0 and C1 controls and bidi
// characters. So this scanner follows ECMA-48 itself: a sequence is dropped whole, from its introducer to its
// final byte or string terminator, and then any control left over is dropped alone. Newlines and tabs stay.

const ESC = 0x1b;
const BEL = 0x07;
const ST_C1 = 0x9c;

/** Introducers of control strings (dropped up to their terminator): DCS, SOS, OSC, PM, APC, as ESC + char. */
const STRING_AFTER_ESC = new Set(["P", "X", "]", "^", "_"].map((c) => c.charCodeAt(0)));
/** The same strings introduced by their 8-bit C1 form. */
const STRING_C1 = new Set([0x90, 0x98, 0x9d, 0x9e, 0x9f]);
const CSI_C1 = 0x9b;

/** Embeddings, overrides, isolates and the three marks: they reorder or hide text without being seen. */
const BIDI_CONTROLS = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

/** A code point that is printed as it is: not C0 (other than \n and \t), DEL, C1 or a bidi control. */
function isPrintable(cp: number): boolean {
  if (cp === 0x0a || cp === 0x09) return true;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return false;
  return !BIDI_CONTROLS.has(cp);
}

/** Index just past a CSI's parameters, intermediates and final byte (or at the first byte that cannot be in one). */
function skipCsi(text: string, i: number): number {
  while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
  while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
  if (i < text.length && text.charCodeAt(i) >= 0x40 && text.charCodeAt(i) <= 0x7e) i++;
  return i;
}

/**
 * Index just past a control string's terminator: ST (ESC \ or U+009C), or BEL, which xterm and most terminals
 * accept for OSC and some for the others. Unterminated, the string runs to the end of the text, as a terminal
 * would swallow it.
 */
function skipControlString(text: string, i: number): number {
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BEL || c === ST_C1) return i + 1;
    if (c === ESC) return text.charCodeAt(i + 1) === 0x5c ? i + 2 : i;
  }
  return i;
}

/** Index just past the escape sequence whose ESC is at `i - 1`. */
function skipEscape(text: string, i: number): number {
  const next = text.charCodeAt(i);
  if (next === 0x5b) return skipCsi(text, i + 1);
  if (STRING_AFTER_ESC.has(next)) return skipControlString(text, i + 1);
  // nF (ESC, intermediates 0x20–0x2F, final 0x30–0x7E, e.g. ESC ( B) and the single-character escapes (ESC 7,
  // ESC c, ESC M, ...): drop up to and including the final byte. An ESC before anything else goes alone.
  let j = i;
  while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
  if (j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x7e) return j + 1;
  return i;
}

/** The text with every terminal control sequence and control character removed; \r\n becomes \n. */
export function terminalSafe(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    if (cp === ESC) i = skipEscape(text, i);
    else if (cp === CSI_C1) i = skipCsi(text, i);
    else if (STRING_C1.has(cp)) i = skipControlString(text, i);
    else if (isPrintable(cp)) out += String.fromCodePoint(cp);
  }
  return out;
}
