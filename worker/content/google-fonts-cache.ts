// Google Fonts for render nodes, which have no network: the Worker fetches each Google Fonts stylesheet a project
// links (and the font files it names) once, keeps them in R2, and lists them among a job's files under
// GOOGLE_FONTS_DIR, where the node's project server serves them in place of the link. A stylesheet that cannot be
// fetched is left out; the node then draws its families from the bundled set or reports a fallback.
//
// The copies are the project owner's: they live in the project's own reserved folder (p/<userId>/<slug>/
// GOOGLE_FONTS_DIR/) and each is stored through the owner's storage ledger, so they count toward the owner's quota
// (a project cannot make the studio store fonts for free), go when the project goes, and are counted again by the
// ledger's reconciliation like any other file of the project. A shared cache would fetch a public font once for
// everyone, but no user's quota could fairly carry it and nothing would bound it. At most MAX_STYLESHEETS per
// project, for render jobs and /play alike; past the quota a stylesheet is left out like one Google refused.
import { googleFontFileName, GOOGLE_FONTS_DIR, googleStylesheetName } from "../../core/fonts/google-fonts-files.ts";
import { googleFontsUrls } from "../../core/fonts/read-font-usage.ts";
import { sha256Hex } from "../auth/tokens.ts";
import type { Env } from "../env.ts";
import { fileKey, type ProjectRef } from "../storage/keys.ts";
import { storeWithinQuota } from "../projects/files/storage-usage.ts";
import { logEvent } from "../http/log.ts";

// Google serves woff2 to a current Chrome; the render pages are Chromium.
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
/** Google Fonts stylesheets fetched for one project (its render jobs and its /play page alike). */
export const MAX_STYLESHEETS = 10;
const MAX_FONT_FILES = 120;
const MAX_FONT_BYTES = 4 * 1024 * 1024;
const MAX_SCANNED_FILE_BYTES = 512 * 1024;
const GSTATIC_URL = /url\(\s*['"]?(https:\/\/fonts\.gstatic\.com\/[^'")\s]+)['"]?\s*\)/g;

export interface CachedFontFile {
  /** The job-file path, under GOOGLE_FONTS_DIR. */
  path: string;
  size: number;
  mtime: string;
}

/** The R2 key of a project's reserved-folder path (a cached stylesheet or font file), or null for any other path. */
export function googleFontsKey(project: ProjectRef, path: string): string | null {
  if (!path.startsWith(`${GOOGLE_FONTS_DIR}/`)) return null;
  const rest = path.slice(GOOGLE_FONTS_DIR.length + 1);
  return /^(?:files\/)?[0-9a-f]{32}\.(?:css|woff2|woff|ttf|otf)$/.test(rest) ? fileKey(project, path) : null;
}

export interface ScannedFile {
  path: string;
  key: string;
  size: number;
}

/**
 * The text of a project's HTML and CSS files (each up to 512 KiB), where font families and links are named; the
 * cached copies in the reserved folder are the Worker's, not the author's, and are left out.
 */
export async function readPageTexts(bucket: R2Bucket, files: ScannedFile[]): Promise<string[]> {
  const pages = files.filter((file) => /\.(?:html?|css)$/i.test(file.path) && file.size <= MAX_SCANNED_FILE_BYTES && !file.path.startsWith(`${GOOGLE_FONTS_DIR}/`));
  return Promise.all(pages.map(async (file) => (await (await bucket.get(file.key))?.text()) ?? ""));
}

const entryOf = (path: string, object: R2Object): CachedFontFile => ({ path, size: object.size, mtime: object.uploaded.toISOString() });

/** Stores one cached object in the project's reserved folder, within the owner's quota (a 413 past it). */
function storeFontObject(env: Env, project: ProjectRef, key: string, body: Uint8Array, options: R2PutOptions): Promise<R2Object> {
  return storeWithinQuota(env, project.userId, key, { exact: body.byteLength }, async (reservation) => {
    await reservation.hold();
    return env.FILES.put(key, body, options);
  });
}

/**
 * Fetches one stylesheet and its fonts into the project's reserved folder (first time only); its cached files, the
 * stylesheet first, or [] when Google refused. Throws the quota's 413 when the owner has no room for them.
 */
export async function cacheStylesheet(env: Env, project: ProjectRef, url: string): Promise<CachedFontFile[]> {
  const bucket = env.FILES;
  const name = googleStylesheetName(await sha256Hex(url));
  const cssPath = `${GOOGLE_FONTS_DIR}/${name}`;
  const cssKey = fileKey(project, cssPath);
  // The stylesheet is written last, with its font files' entries in its metadata: one HEAD answers a cached URL.
  const cached = await bucket.head(cssKey);
  const listed = cached?.customMetadata?.files;
  if (cached && listed) return [entryOf(cssPath, cached), ...(JSON.parse(listed) as CachedFontFile[])];
  // Google answers 400 for a family it does not have: remembered, so a project is not re-fetched on every job.
  const refusedKey = `${cssKey}.refused`;
  if (await bucket.head(refusedKey)) return [];
  const response = await fetch(url.replace(/^\/\//, "https://").replace(/^http:/, "https:"), { headers: { "user-agent": USER_AGENT } });
  if (response.status === 400) await storeFontObject(env, project, refusedKey, new Uint8Array(0), {});
  if (!response.ok) return [];
  const css = await response.text();
  const sources = [...new Set([...css.matchAll(GSTATIC_URL)].map((m) => m[1]!))];
  if (sources.length === 0 || sources.length > MAX_FONT_FILES) return [];
  const files = new Map<string, string>();
  for (const source of sources) {
    const file = `files/${googleFontFileName(await sha256Hex(source), source)}`;
    const key = fileKey(project, `${GOOGLE_FONTS_DIR}/${file}`);
    if (!(await bucket.head(key))) {
      const font = await fetch(source, { headers: { "user-agent": USER_AGENT } });
      const bytes = font.ok ? await font.arrayBuffer() : null;
      if (!bytes || bytes.byteLength > MAX_FONT_BYTES) return [];
      await storeFontObject(env, project, key, new Uint8Array(bytes), { httpMetadata: { contentType: "font/woff2" } });
    }
    files.set(source, file);
  }
  // Font URLs relative to the stylesheet: the node serves it at /GOOGLE_FONTS_DIR/, /play inside the project's link.
  const local = css.replace(GSTATIC_URL, (_all, source: string) => `url(${files.get(source)})`);
  if (/url\(\s*['"]?https?:/i.test(local) || /@import/i.test(local)) return [];
  const fonts: CachedFontFile[] = [];
  for (const file of new Set(files.values())) {
    const object = await bucket.head(fileKey(project, `${GOOGLE_FONTS_DIR}/${file}`));
    if (!object) return [];
    fonts.push(entryOf(`${GOOGLE_FONTS_DIR}/${file}`, object));
  }
  const stored = await storeFontObject(env, project, cssKey, new TextEncoder().encode(local), {
    httpMetadata: { contentType: "text/css; charset=utf-8" },
    customMetadata: { files: JSON.stringify(fonts) },
  });
  return [entryOf(cssPath, stored), ...fonts];
}

/**
 * The Google Fonts files a job carries: the first MAX_STYLESHEETS Google Fonts stylesheets linked from the
 * project's HTML and CSS files (`key` of each is its R2 key), fetched once per URL into the project.
 */
export async function googleFontsForJob(env: Env, project: ProjectRef, files: ScannedFile[]): Promise<CachedFontFile[]> {
  const urls = new Set<string>();
  for (const text of await readPageTexts(env.FILES, files)) for (const url of googleFontsUrls(text)) urls.add(url);
  const entries = new Map<string, CachedFontFile>();
  for (const url of [...urls].slice(0, MAX_STYLESHEETS)) {
    // A stylesheet that cannot be cached (quota, Google or R2) is left out of the job: the page falls back, as for a
    // stylesheet Google refused; the render is not failed for a font.
    const cached = await cacheStylesheet(env, project, url).catch((error: unknown) => {
      logEvent("warn", "fonts.stylesheet_skipped", { error, answer: "job without it" });
      return [];
    });
    for (const entry of cached) entries.set(entry.path, entry);
  }
  return [...entries.values()];
}
