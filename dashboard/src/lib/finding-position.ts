// Where in a file a lint finding points. The linter names elements by a short selector (`div#title`,
// `audio[src="assets/music.mp3"]`, `div`), not by line, so the editor finds that element's opening tag in the text;
// a finding it cannot place marks the file's first line. Pure.

export interface Range {
  from: number;
  to: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A regular expression matching the opening tag a selector names, or null for selectors it cannot read. */
function tagPattern(selector: string): RegExp | null {
  const first = selector.split(",")[0]?.trim() ?? "";
  const withId = /^([a-z][\w-]*)?#([A-Za-z_][\w-]*)$/i.exec(first);
  if (withId) {
    const tag = withId[1] ? escapeRegExp(withId[1]) : "[a-z][\\w-]*";
    return new RegExp(`<${tag}\\b[^>]*?\\bid\\s*=\\s*["']?${escapeRegExp(withId[2] ?? "")}["'\\s>]`, "i");
  }
  const withAttr = /^([a-z][\w-]*)\[([\w-]+)="((?:[^"\\]|\\.)*)"\]$/i.exec(first);
  if (withAttr) {
    const value = (withAttr[3] ?? "").replace(/\\"/g, '"');
    return new RegExp(`<${escapeRegExp(withAttr[1] ?? "")}\\b[^>]*?\\b${escapeRegExp(withAttr[2] ?? "")}\\s*=\\s*["']${escapeRegExp(value)}["']`, "i");
  }
  const bare = /^([a-z][\w-]*)$/i.exec(first);
  if (bare) return new RegExp(`<${escapeRegExp(bare[1] ?? "")}\\b`, "i");
  return null;
}

/** The first line's extent: where findings go that point at the file as a whole. */
function firstLine(text: string): Range {
  const end = text.indexOf("\n");
  return { from: 0, to: end < 0 ? text.length : end };
}

/** The opening tag (up to its `>`, or the end of its line) of the element a finding's selector names. */
export function findingRange(text: string, selector: string | undefined): Range {
  const pattern = selector ? tagPattern(selector) : null;
  const match = pattern?.exec(text);
  if (!match) return firstLine(text);
  const from = match.index;
  const close = text.indexOf(">", from);
  const eol = text.indexOf("\n", from);
  const to = close >= 0 && (eol < 0 || close < eol) ? close + 1 : eol < 0 ? text.length : eol;
  return { from, to: Math.max(to, from + 1) };
}

/**
 * The composition time where the cursor is: the `data-start` of the opening tag the cursor is in or closest
 * above it, so the preview shows the moment being edited. Null when no tag above has one.
 */
export function timeAtCursor(text: string, pos: number): number | null {
  const before = text.slice(0, Math.min(text.length, pos));
  const tagEnd = text.indexOf(">", pos);
  const lineEnd = text.indexOf("\n", pos);
  // The tag the cursor sits in counts as a whole, even the part after the cursor.
  const upTo = tagEnd >= 0 && (lineEnd < 0 || tagEnd < lineEnd) ? text.slice(0, tagEnd + 1) : before;
  const all = [...upTo.matchAll(/<[a-z][\w-]*\b[^>]*?\bdata-start\s*=\s*["']?(\d+(?:\.\d+)?)/gi)];
  const last = all.at(-1);
  return last ? Number(last[1]) : null;
}
