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

export interface ScannedFile {
  path: string;
  key: string;
  size: number;
}

/** The text of a project's HTML and CSS files (each up to 512 KiB), where font families and links are named. */
export async function readPageTexts(bucket: R2Bucket, files: ScannedFile[]): Promise<string[]> {
  const pages = files.filter((file) => /\.(?:html?|css)$/i.test(file.path) && file.size <= MAX_SCANNED_FILE_BYTES);
  return Promise.all(pages.map(async (file) => (await (await bucket.get(file.key))?.text()) ?? ""));
}

const entryOf = (path: string, object: R2Object): CachedFontFile => ({ path, size: object.size, mtime: object.uploaded.toISOString() });

/**
 * Fetches one stylesheet and its fonts into R2 (first time only); its cached files, the stylesheet first, or [] when
 * Google refused.
 */
export async function cacheStylesheet(bucket: R2Bucket, url: string): Promise<CachedFontFile[]> {
  const name = googleStylesheetName(await sha256Hex(url));
  const cssKey = `${GOOGLE_FONTS_PREFIX}${name}`;
  // The stylesheet is written last, with its font files' entries in its metadata: one HEAD answers a cached URL.
  const cached = await bucket.head(cssKey);
  const listed = cached?.customMetadata?.files;
  if (cached && listed) return [entryOf(`${GOOGLE_FONTS_DIR}/${name}`, cached), ...(JSON.parse(listed) as CachedFontFile[])];
  // Google answers 400 for a family it does not have: remembered, so a project is not re-fetched on every job.
  const refusedKey = `${cssKey}.refused`;
  if (await bucket.head(refusedKey)) return [];
  const response = await fetch(url.replace(/^\/\//, "https://").replace(/^http:/, "https:"), { headers: { "user-agent": USER_AGENT } });
  if (response.status === 400) await bucket.put(refusedKey, "");
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
  const fonts: CachedFontFile[] = [];
  for (const file of new Set(files.values())) fonts.push(entryOf(`${GOOGLE_FONTS_DIR}/${file}`, (await bucket.head(GOOGLE_FONTS_PREFIX + file))!));
  const stored = await bucket.put(cssKey, local, { httpMetadata: { contentType: "text/css; charset=utf-8" }, customMetadata: { files: JSON.stringify(fonts) } });
  return [entryOf(`${GOOGLE_FONTS_DIR}/${name}`, stored), ...fonts];
}

/**
 * The Google Fonts files a job carries: every Google Fonts stylesheet linked from the project's HTML and CSS files
 * (`keys` maps each project path to its R2 key), fetched at most once per URL across all projects.
 */
export async function googleFontsForJob(bucket: R2Bucket, files: ScannedFile[]): Promise<CachedFontFile[]> {
  const urls = new Set<string>();
  for (const text of await readPageTexts(bucket, files)) for (const url of googleFontsUrls(text)) urls.add(url);
  const entries = new Map<string, CachedFontFile>();
  for (const url of [...urls].slice(0, MAX_STYLESHEETS)) {
    for (const entry of await cacheStylesheet(bucket, url).catch(() => [])) entries.set(entry.path, entry);
  }
  return [...entries.values()];
}
