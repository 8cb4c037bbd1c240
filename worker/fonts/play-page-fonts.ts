// Fonts for the /play page on the content origin, whose CSP allows fonts and stylesheets from that origin only:
// Google Fonts links become the R2-cached copies (served at /__studio/fonts/google/), and the bundled families the
// project names (and Inter for generic families) come from Google through the same cache, since the Worker carries
// no font files. Without Google (a fetch refused), those families fall back in /play only; renders are unaffected.
import { bundledFamilyFor, GENERIC_PRIMARY, MAPPED_FAMILY_NAMES, normalizeFamily, type BundledFamily } from "../../core/fonts/font-table.ts";
import { GOOGLE_FONTS_DIR } from "../../core/fonts/google-fonts-files.ts";
import { declaredFamilies, googleFontsUrls } from "../../core/fonts/read-font-usage.ts";
import { rewriteHtmlFonts } from "../../core/fonts/rewrite-page-fonts.ts";
import { cacheStylesheet, googleFontsKey, readPageTexts, type ScannedFile } from "./google-fonts-cache.ts";

/** Google's stylesheet URL for a bundled family at the weights the render node bundles. */
export function bundledFamilyUrl(family: BundledFamily): string {
  return `https://fonts.googleapis.com/css2?family=${family.name.replace(/ /g, "+")}:wght@${family.weights.join(";")}&display=block`;
}

async function cachedCss(bucket: R2Bucket, url: string): Promise<{ path: string; css: string } | null> {
  const [stylesheet] = await cacheStylesheet(bucket, url).catch(() => []);
  const key = stylesheet && googleFontsKey(stylesheet.path);
  const css = key ? await (await bucket.get(key))?.text() : undefined;
  return stylesheet && css !== undefined ? { path: `/${stylesheet.path}`, css } : null;
}

/** The play page's HTML with its fonts made loadable from the content origin. */
export async function playPageFonts(bucket: R2Bucket, html: string, files: ScannedFile[]): Promise<string> {
  const texts = [html, ...(await readPageTexts(bucket, files))];
  const local = new Map<string, string>();
  for (const url of new Set(texts.flatMap((text) => googleFontsUrls(text)))) {
    const cached = await cachedCss(bucket, url);
    if (cached) local.set(url, cached.path);
  }
  const declared = new Set(texts.flatMap((text) => [...declaredFamilies(text)]));
  const haystack = texts.join("\n").toLowerCase().replace(/\+/g, " ");
  const named = [normalizeFamily(GENERIC_PRIMARY), ...MAPPED_FAMILY_NAMES.filter((name) => haystack.includes(name))];
  const rules: string[] = [];
  for (const name of new Set(named)) {
    const family = bundledFamilyFor(name);
    if (!family || declared.has(name)) continue;
    const cached = await cachedCss(bucket, bundledFamilyUrl(family));
    const emit = name === normalizeFamily(family.name) ? family.name : name;
    if (cached) rules.push(cached.css.replace(/font-family:\s*'[^']*'/g, `font-family: ${JSON.stringify(emit)}`));
  }
  const rewritten = rewriteHtmlFonts(html, (url) => local.get(url) ?? null);
  if (rules.length === 0) return rewritten;
  const style = `<style data-studio-fonts>\n${rules.join("\n")}\n</style>`;
  const head = /<head\b[^>]*>/i.exec(rewritten);
  return head ? rewritten.slice(0, head.index + head[0].length) + style + rewritten.slice(head.index + head[0].length) : style + rewritten;
}

/** The R2 key behind a content-origin path /__studio/fonts/google/…, or null. */
export function playFontKey(pathname: string): string | null {
  return pathname.startsWith(`/${GOOGLE_FONTS_DIR}/`) ? googleFontsKey(pathname.slice(1)) : null;
}
