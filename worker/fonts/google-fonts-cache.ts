// Google Fonts for render nodes, which have no network: the Worker fetches each Google Fonts stylesheet a project
// links (and the font files it names) once, keeps them in R2 under fonts/google/, and lists them among a job's
// files under GOOGLE_FONTS_DIR, where the node's project server serves them in place of the link. A stylesheet that
// cannot be fetched is left out; the node then draws its families from the bundled set or reports a fallback.
import { googleFontFileName, GOOGLE_FONTS_DIR, googleStylesheetName } from "../../core/fonts/google-fonts-files.ts";
import { googleFontsUrls } from "../../core/fonts/read-font-usage.ts";
import { sha256Hex } from "../auth/tokens.ts";

/** R2 prefix of the shared cache (public fonts, not any user's data). */
export const GOOGLE_FONTS_PREFIX = "fonts/google/";

// Google serves woff2 to a current Chrome; the render pages are Chromium.
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
const MAX_STYLESHEETS = 10;
const MAX_FONT_FILES = 120;
const MAX_FONT_BYTES = 4 * 1024 * 1024;
const MAX_SCANNED_FILE_BYTES = 512 * 1024;

export interface CachedFontFile {
  /** The job-file path, under GOOGLE_FONTS_DIR. */
  path: string;
  size: number;
  mtime: string;
}

/** The R2 key of a job-file path under GOOGLE_FONTS_DIR, or null for any other path. */
export function googleFontsKey(path: string): string | null {
  if (!path.startsWith(`${GOOGLE_FONTS_DIR}/`)) return null;
  const rest = path.slice(GOOGLE_FONTS_DIR.length + 1);
  return /^(?:files\/)?[0-9a-f]{32}\.(?:css|woff2|woff|ttf|otf)$/.test(rest) ? GOOGLE_FONTS_PREFIX + rest : null;
}

const entryOf = (path: string, object: R2Object): CachedFontFile => ({ path, size: object.size, mtime: object.uploaded.toISOString() });

/** Fetches one stylesheet and its fonts into R2 (first time only); its cached files, or [] when Google refused. */
async function cacheStylesheet(bucket: R2Bucket, url: string): Promise<CachedFontFile[]> {
  const name = googleStylesheetName(await sha256Hex(url));
  const cssKey = `${GOOGLE_FONTS_PREFIX}${name}`;
  const cached = await bucket.get(cssKey);
  if (cached) {
    const css = await cached.text();
    const fonts = [...css.matchAll(/url\(\/__studio\/fonts\/google\/(files\/[0-9a-f]{32}\.\w+)\)/g)].map((m) => m[1]!);
    const heads = await Promise.all(fonts.map(async (file) => ({ file, head: await bucket.head(GOOGLE_FONTS_PREFIX + file) })));
    if (heads.every(({ head }) => head)) {
      return [entryOf(`${GOOGLE_FONTS_DIR}/${name}`, cached), ...heads.map(({ file, head }) => entryOf(`${GOOGLE_FONTS_DIR}/${file}`, head!))];
    }
  }
  const response = await fetch(url.replace(/^\/\//, "https://").replace(/^http:/, "https:"), { headers: { "user-agent": USER_AGENT } });
  if (!response.ok) return [];
  const css = await response.text();
  const sources = [...new Set([...css.matchAll(/url\(\s*['"]?(https:\/\/fonts\.gstatic\.com\/[^'")\s]+)['"]?\s*\)/g)].map((m) => m[1]!))];
  if (sources.length === 0 || sources.length > MAX_FONT_FILES) return [];
  const files = new Map<string, string>();
  for (const source of sources) {
    const file = `files/${googleFontFileName(await sha256Hex(source), source)}`;
    const key = GOOGLE_FONTS_PREFIX + file;
    if (!(await bucket.head(key))) {
      const font = await fetch(source, { headers: { "user-agent": USER_AGENT } });
      const bytes = font.ok ? await font.arrayBuffer() : null;
      if (!bytes || bytes.byteLength > MAX_FONT_BYTES) return [];
      await bucket.put(key, bytes, { httpMetadata: { contentType: "font/woff2" } });
    }
    files.set(source, file);
  }
  // The node serves these at the same path; only gstatic font URLs were kept, each now a local file.
  const local = css.replace(/url\(\s*['"]?(https:\/\/fonts\.gstatic\.com\/[^'")\s]+)['"]?\s*\)/g, (_all, source: string) => `url(/${GOOGLE_FONTS_DIR}/${files.get(source)})`);
  if (/url\(\s*['"]?https?:/i.test(local) || /@import/i.test(local)) return [];
  const stored = await bucket.put(cssKey, local, { httpMetadata: { contentType: "text/css; charset=utf-8" } });
  const entries = [entryOf(`${GOOGLE_FONTS_DIR}/${name}`, stored)];
  for (const file of new Set(files.values())) entries.push(entryOf(`${GOOGLE_FONTS_DIR}/${file}`, (await bucket.head(GOOGLE_FONTS_PREFIX + file))!));
  return entries;
}

/**
 * The Google Fonts files a job carries: every Google Fonts stylesheet linked from the project's HTML and CSS files
 * (`keys` maps each project path to its R2 key), fetched at most once per URL across all projects.
 */
export async function googleFontsForJob(bucket: R2Bucket, files: Array<{ path: string; key: string; size: number }>): Promise<CachedFontFile[]> {
  const urls = new Set<string>();
  for (const file of files) {
    if (!/\.(?:html?|css)$/i.test(file.path) || file.size > MAX_SCANNED_FILE_BYTES) continue;
    const text = await (await bucket.get(file.key))?.text();
    for (const url of googleFontsUrls(text ?? "")) urls.add(url);
  }
  const entries = new Map<string, CachedFontFile>();
  for (const url of [...urls].slice(0, MAX_STYLESHEETS)) {
    for (const entry of await cacheStylesheet(bucket, url).catch(() => [])) entries.set(entry.path, entry);
  }
  return [...entries.values()];
}
