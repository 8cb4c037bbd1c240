// The bundled web fonts on the render node: @font-face rules for the mapped families a project uses (from the
// @fontsource packages' own CSS, pointed at the project server's reserved path) and the woff2 files behind them.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join, relative, sep } from "node:path";
import { bundledFamilyFor, GENERIC_PRIMARY, MAPPED_FAMILY_NAMES, normalizeFamily, type BundledFamily } from "../../../core/fonts/font-table.ts";
import { declaredFamilies, googleFontsFamilies, googleFontsUrls, htmlStyleText, usedFamilies } from "../../../core/fonts/read-font-usage.ts";
import { GOOGLE_FONTS_DIR, googleStylesheetName } from "../../../core/fonts/google-fonts-files.ts";
import { isNotFound } from "../system/debug-log.ts";

/** The project server's path of the bundled faces' stylesheet. */
export const FACES_PATH = "/__studio/fonts/faces.css";

/** The project server's path for bundled font files: /__studio/fonts/bundled/<package>/<file>.woff2. */
export const BUNDLED_FONTS_PATH = "/__studio/fonts/bundled/";

const require = createRequire(import.meta.url);

function packageDir(family: BundledFamily): string {
  return dirname(require.resolve(`${family.packageName}/package.json`));
}

/** The woff2 file behind /__studio/fonts/bundled/<package>/<file>, or null for anything else. */
export function bundledFontFile(pathname: string): string | null {
  const match = /^\/__studio\/fonts\/bundled\/([a-z0-9-]+)\/([a-z0-9-]+\.woff2)$/.exec(pathname);
  if (!match) return null;
  const family = bundledFamilyFor(match[1]!.replace(/-/g, " "));
  if (!family || family.packageName !== `@fontsource/${match[1]}`) return null;
  return join(packageDir(family), "files", match[2]!);
}

/**
 * @font-face rules drawing `emitName` with a bundled family: every weight, style and subset its package ships,
 * woff2 only. (HyperFrames embeds 400/700/900 and, with the network, takes the other weights and italics from Google;
 * the package has the same faces, so a 600 or an italic is drawn, not synthesized, offline too.)
 */
export async function bundledFontFaces(family: BundledFamily, emitName: string, urlPrefix = ""): Promise<string> {
  const dir = packageDir(family);
  const short = family.packageName.slice("@fontsource/".length);
  const metadata = JSON.parse(await readFile(join(dir, "metadata.json"), "utf8")) as { weights: number[]; styles: string[] };
  const files = metadata.weights.flatMap((weight) => metadata.styles.map((style) => (style === "italic" ? `${weight}-italic.css` : `${weight}.css`)));
  const sheets = await Promise.all(files.map((file) => readFile(join(dir, file), "utf8")));
  return sheets
    .join("\n")
    .replace(/font-family:\s*'[^']*'/g, `font-family: ${JSON.stringify(emitName)}`)
    // A render captures once fonts are ready; block keeps a frame from ever showing a swapped-in fallback.
    .replace(/font-display:\s*swap/g, "font-display: block")
    .replace(/src:\s*url\(\.\/files\/([^)]+\.woff2)\)\s*format\('woff2'\)[^;]*;/g, (_all, file: string) => `src: url(${urlPrefix}${BUNDLED_FONTS_PATH}${short}/${file}) format('woff2');`);
}

/** The SHA-256 name of a Google Fonts stylesheet URL, as the Worker ships it. */
export function googleStylesheetHash(url: string): string {
  return googleStylesheetName(createHash("sha256").update(url).digest("hex"));
}

export interface ProjectFonts {
  /** The bundled faces of every mapped family the project names (CSS, "" for none), served at FACES_PATH. */
  faces: string;
  /** The <link> that loads them, for the top of each page ("" for none): render-blocking, so no frame precedes it. */
  linkTag: string;
  /** Each named family the project's pages and stylesheets use, with the files that use it (for findings). */
  uses: FontUse[];
  /** Where a Google Fonts stylesheet is served when the Worker shipped it with the job; null otherwise. */
  googleStylesheet(url: string): string | null;
}

export interface FontUse {
  family: string;
  files: string[];
}

const TEXT_FILES = new Set([".html", ".htm", ".css", ".js", ".mjs", ".json"]);

async function listTextFiles(root: string, dir = root, out: string[] = []): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    // A folder that went (or was never there): no text files in it.
    if (isNotFound(error)) return [];
    throw error;
  });
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules") await listTextFiles(root, path, out);
    else if (entry.isFile() && TEXT_FILES.has(extname(entry.name).toLowerCase())) out.push(relative(root, path).split(sep).join("/"));
  }
  return out;
}

/**
 * Reads the project once: which mapped families it names anywhere (a stylesheet, a style attribute, a script that
 * sets fontFamily, a Google Fonts link) and which it declares itself (those keep the project's own @font-face).
 * `urlPrefix` goes in front of the font URLs (the preview server serves everything under its secret).
 */
export async function readProjectFonts(projectDir: string, urlPrefix = ""): Promise<ProjectFonts> {
  const files = (await listTextFiles(projectDir)).filter((file) => !file.startsWith(`${GOOGLE_FONTS_DIR}/`));
  const texts = await Promise.all(files.map((file) => readFile(join(projectDir, file), "utf8").catch((error: unknown) => {
    // A file removed since the listing (a preview's project changes while it is served) names no font.
    if (isNotFound(error)) return "";
    throw error;
  })));
  const declared = new Set<string>();
  const named = new Set<string>([normalizeFamily(GENERIC_PRIMARY)]);
  const haystack = texts.join("\n").toLowerCase().replace(/\+/g, " ");
  for (const text of texts) {
    for (const family of declaredFamilies(text)) declared.add(family);
    for (const url of googleFontsUrls(text)) for (const family of googleFontsFamilies(url)) named.add(normalizeFamily(family));
  }
  for (const name of MAPPED_FAMILY_NAMES) if (haystack.includes(name)) named.add(name);
  const uses = new Map<string, FontUse>();
  files.forEach((file, index) => {
    const extension = extname(file).toLowerCase();
    if (extension === ".js" || extension === ".mjs" || extension === ".json") return;
    const css = extension === ".css" ? texts[index]! : htmlStyleText(texts[index]!);
    for (const family of usedFamilies(css)) {
      const key = normalizeFamily(family);
      const use = uses.get(key) ?? { family, files: [] };
      if (!use.files.includes(file)) use.files.push(file);
      uses.set(key, use);
    }
  });
  const rules: string[] = [];
  for (const name of named) {
    const family = bundledFamilyFor(name);
    if (!family || declared.has(name)) continue;
    const emitName = name === normalizeFamily(family.name) ? family.name : name;
    rules.push(await bundledFontFaces(family, emitName, urlPrefix));
  }
  return {
    uses: [...uses.values()],
    faces: rules.join("\n"),
    linkTag: rules.length ? `<link rel="stylesheet" href="${urlPrefix}${FACES_PATH}" data-studio-fonts>` : "",
    googleStylesheet(url) {
      const name = googleStylesheetHash(url);
      return existsSync(join(projectDir, GOOGLE_FONTS_DIR, name)) ? `/${GOOGLE_FONTS_DIR}/${name}` : null;
    },
  };
}
