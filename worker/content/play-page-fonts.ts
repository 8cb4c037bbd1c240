// Fonts for the /play page on the content origin, whose CSP allows fonts and stylesheets from that origin only:
// Google Fonts links (the first MAX_STYLESHEETS, as for render jobs) become the copies cached in the project's
// reserved folder (google-fonts-cache.ts: the owner's files, counted in their quota), linked relative to the page so
// they are served as the project's files under its capability; the bundled families the project names (and Inter
// for generic families, a fixed set) come from Google through the same cache, since the Worker carries no font
// files. Without Google (a fetch refused) or without room in the owner's quota, those families fall back in /play
// only; renders are unaffected.
import { bundledFamilyFor, GENERIC_PRIMARY, MAPPED_FAMILY_NAMES, normalizeFamily, type BundledFamily } from "../../core/fonts/font-table.ts";
import { GOOGLE_FONTS_DIR } from "../../core/fonts/google-fonts-files.ts";
import { declaredFamilies, googleFontsUrls } from "../../core/fonts/read-font-usage.ts";
import { rewriteHtmlFonts } from "../../core/fonts/rewrite-page-fonts.ts";
import type { Env } from "../env.ts";
import type { ProjectRef } from "../storage/keys.ts";
import { cacheStylesheet, googleFontsKey, MAX_STYLESHEETS, readPageTexts, type ScannedFile } from "./google-fonts-cache.ts";
import { logEvent } from "../http/log.ts";

/** Google's stylesheet URL for a bundled family at the weights the render node bundles. */
export function bundledFamilyUrl(family: BundledFamily): string {
  return `https://fonts.googleapis.com/css2?family=${family.name.replace(/ /g, "+")}:wght@${family.weights.join(";")}&display=block`;
}

/** A cached stylesheet: its path in the project (relative to the play page) and its text. */
async function cachedCss(env: Env, project: ProjectRef, url: string): Promise<{ path: string; css: string } | null> {
  // The page plays without this font (the browser's fallback) rather than failing: quota, Google or R2 trouble alike.
  const [stylesheet] = await cacheStylesheet(env, project, url).catch((error: unknown) => {
    logEvent("warn", "fonts.stylesheet_skipped", { error, answer: "play page without it" });
    return [];
  });
  const key = stylesheet && googleFontsKey(project, stylesheet.path);
  const css = key ? await (await env.FILES.get(key))?.text() : undefined;
  return stylesheet && css !== undefined ? { path: stylesheet.path, css } : null;
}

/** The play page's HTML with its fonts made loadable from the content origin. */
export async function playPageFonts(env: Env, project: ProjectRef, html: string, files: ScannedFile[]): Promise<string> {
  const texts = [html, ...(await readPageTexts(env.FILES, files))];
  const local = new Map<string, string>();
  for (const url of [...new Set(texts.flatMap((text) => googleFontsUrls(text)))].slice(0, MAX_STYLESHEETS)) {
    const cached = await cachedCss(env, project, url);
    if (cached) local.set(url, cached.path);
  }
  const declared = new Set(texts.flatMap((text) => [...declaredFamilies(text)]));
  const haystack = texts.join("\n").toLowerCase().replace(/\+/g, " ");
  const named = [normalizeFamily(GENERIC_PRIMARY), ...MAPPED_FAMILY_NAMES.filter((name) => haystack.includes(name))];
  const rules: string[] = [];
  for (const name of new Set(named)) {
    const family = bundledFamilyFor(name);
    if (!family || declared.has(name)) continue;
    const cached = await cachedCss(env, project, bundledFamilyUrl(family));
    const emit = name === normalizeFamily(family.name) ? family.name : name;
    // Inlined in the page, the stylesheet's relative font URLs are made relative to the page instead.
    const css = cached?.css.replace(/url\(files\//g, `url(${GOOGLE_FONTS_DIR}/files/`);
    if (css) rules.push(css.replace(/font-family:\s*'[^']*'/g, `font-family: ${JSON.stringify(emit)}`));
  }
  const rewritten = rewriteHtmlFonts(html, (url) => local.get(url) ?? null);
  if (rules.length === 0) return rewritten;
  const style = `<style data-studio-fonts>\n${rules.join("\n")}\n</style>`;
  const head = /<head\b[^>]*>/i.exec(rewritten);
  return head ? rewritten.slice(0, head.index + head[0].length) + style + rewritten.slice(head.index + head[0].length) : style + rewritten;
}
