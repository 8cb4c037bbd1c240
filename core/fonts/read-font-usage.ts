// Which font families a stylesheet, a style attribute or a page names, which it declares itself with @font-face,
// and which Google Fonts stylesheets it links. Text in, names out: the linter, the render node's project server
// and the Worker all read fonts the same way.
import { isGenericFamily, normalizeFamily } from "./font-table.ts";
import { parseUrl } from "../parse-text.ts";

const COMMENTS = /\/\*[\s\S]*?\*\//g;
const FONT_FACE_BLOCK = /@font-face\s*\{[^}]*\}/gi;

/** `"Open Sans", Arial, sans-serif` → ["Open Sans", "Arial", "sans-serif"]; commas inside quotes or var() stay. */
export function splitFamilyList(value: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let depth = 0;
  let quote: string | null = null;
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index]!;
    if (char === "\\") index += 1;
    else if (quote) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === "(") depth += 1;
    else if (char === ")") depth = Math.max(0, depth - 1);
    else if (char === "," && depth === 0) {
      pieces.push(value.slice(start, index));
      start = index + 1;
    }
  }
  pieces.push(value.slice(start));
  return pieces
    .map((piece) => piece.replace(/\s*!important\s*$/i, "").trim().replace(/^['"]|['"]$/g, "").trim())
    .filter((piece) => piece.length > 0);
}

/** The values of every `font-family:` declaration in CSS text (a stylesheet or a style attribute), @font-face excluded. */
export function fontFamilyDeclarations(css: string): string[] {
  const text = css.replace(COMMENTS, " ").replace(FONT_FACE_BLOCK, " ");
  const values: string[] = [];
  // Not preceded by `-`: custom properties (`--brand-font-family`) are values, not uses.
  const declaration = /(?<![-\w])font-family\s*:\s*((?:"[^"]*"|'[^']*'|[^;{}"'])*)/gi;
  for (const match of text.matchAll(declaration)) values.push(match[1]!.trim());
  return values;
}

/**
 * The named (non-generic) families CSS text asks for, in first-seen order, as written. A `var(...)` is skipped:
 * its value is decided in the page, where the render node checks what was drawn.
 */
export function usedFamilies(css: string): string[] {
  const seen = new Map<string, string>();
  for (const value of fontFamilyDeclarations(css)) {
    for (const family of splitFamilyList(value)) {
      if (isGenericFamily(family) || family.includes("(") || family.includes(")")) continue;
      const key = normalizeFamily(family);
      if (!seen.has(key)) seen.set(key, family);
    }
  }
  return [...seen.values()];
}

/** Lower-case names of the families CSS text declares with its own @font-face. */
export function declaredFamilies(css: string): Set<string> {
  const families = new Set<string>();
  for (const block of css.replace(COMMENTS, " ").match(FONT_FACE_BLOCK) ?? []) {
    const family = /font-family\s*:\s*("[^"]*"|'[^']*'|[^;}]+)/i.exec(block)?.[1];
    if (family) families.add(normalizeFamily(family));
  }
  return families;
}

/** Whether a URL is a Google Fonts stylesheet (fonts.googleapis.com/css or /css2). */
export function isGoogleFontsCssUrl(url: string): boolean {
  const read = parseUrl(url.trim().replace(/&amp;/gi, "&"), "https://fonts.googleapis.com/");
  if (!read.ok) return false; // no URL is no stylesheet
  const parsed = read.value;
  return parsed.hostname.toLowerCase() === "fonts.googleapis.com" && /^\/css2?$/.test(parsed.pathname) && /^https?:|^\/\//i.test(url.trim());
}

/** The families a Google Fonts stylesheet URL asks for: `family=Playfair+Display:wght@700&family=Inter` → both. */
export function googleFontsFamilies(url: string): string[] {
  if (!isGoogleFontsCssUrl(url)) return [];
  const parsed = new URL(url.trim().replace(/&amp;/gi, "&"), "https://fonts.googleapis.com/");
  return parsed.searchParams
    .getAll("family")
    .flatMap((value) => value.split("|"))
    .map((entry) => (entry.split(":", 1)[0] ?? "").trim())
    .filter((family) => family.length > 0);
}

/** Google Fonts stylesheet URLs in HTML (`<link href>`) or CSS (`@import`) text. */
export function googleFontsUrls(text: string): string[] {
  const urls = new Set<string>();
  for (const match of text.matchAll(/<link\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/gi)) {
    const href = (match[1] ?? match[2] ?? match[3] ?? "").replace(/&amp;/gi, "&");
    if (/\bstylesheet\b/i.test(match[0]) && isGoogleFontsCssUrl(href)) urls.add(href);
  }
  for (const match of text.replace(COMMENTS, " ").matchAll(/@import\s+(?:url\(\s*)?["']?([^"')\s;]+)["']?\s*\)?[^;]*;?/gi)) {
    if (isGoogleFontsCssUrl(match[1]!)) urls.add(match[1]!);
  }
  return [...urls];
}

/** The CSS text of an HTML page: its <style> blocks and style attributes (entity-decoded quotes), one per line. */
export function htmlStyleText(html: string): string {
  const parts: string[] = [];
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) parts.push(match[1]!);
  for (const match of html.matchAll(/\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    parts.push(`*{${(match[1] ?? match[2] ?? "").replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&amp;/g, "&")}}`);
  }
  return parts.join("\n");
}
