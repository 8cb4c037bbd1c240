// What a render page's HTML and CSS become before Chromium reads them: a declaration whose first family is a
// generic (`font-family: sans-serif`) gets the bundled GENERIC_PRIMARY in front, so it never depends on the
// machine's fonts (HyperFrames does the same), and Google Fonts stylesheets are swapped for a local copy or
// dropped (their families then come from the bundled set), so the page never tries to reach fonts.googleapis.com,
// which render pages cannot reach. Pure.
import { GENERIC_PRIMARY, GENERIC_FAMILIES } from "./font-table.ts";
import { isGoogleFontsCssUrl } from "./read-font-usage.ts";

const GENERIC = [...GENERIC_FAMILIES].map((name) => name.replace(/[-]/g, "\\-")).join("|");
// `font-family:` (not a custom property) followed by a generic name as its first family.
const GENERIC_FIRST = new RegExp(`((?<![-\\w])font-family\\s*:\\s*)(?=(?:${GENERIC})\\s*(?:[,;}"'!]|&quot;|$))`, "gi");
const FONT_FACE_BLOCK = /@font-face\s*\{[^}]*\}/gi;

/** Where a Google Fonts stylesheet URL is served locally, or null when it is not (its families are bundled or missing). */
export type GoogleStylesheetLookup = (url: string) => string | null;

/** CSS text (a stylesheet or a style attribute) with generic-first declarations led by GENERIC_PRIMARY. */
export function prependGenericPrimary(css: string): string {
  // @font-face blocks name a family; they never use one.
  let out = "";
  let last = 0;
  for (const block of css.matchAll(FONT_FACE_BLOCK)) {
    out += css.slice(last, block.index).replace(GENERIC_FIRST, `$1${GENERIC_PRIMARY}, `) + block[0];
    last = block.index + block[0].length;
  }
  return out + css.slice(last).replace(GENERIC_FIRST, `$1${GENERIC_PRIMARY}, `);
}

/** CSS with each Google Fonts `@import` pointed at its local copy, or removed. */
export function rewriteCssFonts(css: string, google: GoogleStylesheetLookup): string {
  const imports = css.replace(/@import\s+(?:url\(\s*)?["']?([^"')\s;]+)["']?\s*\)?([^;]*);?/gi, (rule, url: string) => {
    if (!isGoogleFontsCssUrl(url)) return rule;
    const local = google(url);
    return local ? `@import url("${local}");` : `/* ${url.replace(/\*\//g, "")}: served from the studio's bundled fonts */`;
  });
  return prependGenericPrimary(imports);
}

/** An HTML page with its <style> blocks and style attributes rewritten, and Google Fonts links swapped or removed. */
export function rewriteHtmlFonts(html: string, google: GoogleStylesheetLookup): string {
  return html
    .replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style>)/gi, (_all, open: string, css: string, close: string) => open + rewriteCssFonts(css, google) + close)
    .replace(/(\sstyle\s*=\s*)("[^"]*"|'[^']*')/gi, (_all, name: string, value: string) => name + prependGenericPrimary(value))
    .replace(/<link\b[^>]*>/gi, (tag) => {
      const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
      const url = (href?.[1] ?? href?.[2] ?? href?.[3] ?? "").replace(/&amp;/gi, "&");
      // Preconnects to Google's font hosts would be network attempts too.
      if (/^(?:https?:)?\/\/fonts\.(?:googleapis|gstatic)\.com(?:\/|$)/i.test(url) && !/\bstylesheet\b/i.test(tag)) return "";
      if (!isGoogleFontsCssUrl(url) || !/\bstylesheet\b/i.test(tag)) return tag;
      const local = google(url);
      return local ? `<link rel="stylesheet" href="${local}">` : "";
    });
}
