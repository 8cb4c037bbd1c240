// A font-family nobody supplies renders with a fallback font: the video shows other letters than the author chose.
// Supplied means an @font-face in the project (the entry's faces reach every inlined sub-composition too), a family
// the studio bundles (core/fonts/font-table.ts), or a family a Google Fonts stylesheet of the file links (the
// Worker resolves those). Same code and severity as `hyperframes lint`.
import { bundledFamilyFor, normalizeFamily } from "../../fonts/font-table.ts";
import { declaredFamilies, googleFontsFamilies, googleFontsUrls, usedFamilies } from "../../fonts/read-font-usage.ts";
import { readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { ProjectContext } from "../project-context.ts";
import type { LintFinding } from "../types.ts";

function fileCss(file: CompositionFile): string {
  const inline = file.elements.map((element) => readAttribute(element, "style")).filter((style): style is string => style !== null);
  return [...file.styles.map((sheet) => sheet.text), ...inline.map((style) => `*{${style}}`)].join("\n");
}

function linkedGoogleFamilies(file: CompositionFile): Set<string> {
  const urls = file.elements
    .filter((element) => element.name === "link")
    .map((element) => `<link rel="${readAttribute(element, "rel") ?? ""}" href="${readAttribute(element, "href") ?? ""}">`)
    .concat(file.styles.map((sheet) => sheet.text))
    .flatMap((text) => googleFontsUrls(text));
  return new Set(urls.flatMap(googleFontsFamilies).map(normalizeFamily));
}

export function checkFontFamilies(file: CompositionFile, project: ProjectContext): LintFinding[] {
  const declared = declaredFamilies([file, ...(project.entry && project.entry !== file ? [project.entry] : [])].map(fileCss).join("\n"));
  const google = linkedGoogleFamilies(file);
  const missing = usedFamilies(fileCss(file)).filter((family) => {
    const key = normalizeFamily(family);
    return !declared.has(key) && !bundledFamilyFor(key) && !google.has(key);
  });
  if (missing.length === 0) return [];
  const names = missing.map((family) => `"${family}"`).join(", ");
  return [
    createFinding("font_family_without_font_face", file.path, `Font ${missing.length === 1 ? "family" : "families"} ${names} ${missing.length === 1 ? "is" : "are"} used without an @font-face and ${missing.length === 1 ? "is" : "are"} not among the studio's bundled families; text will be drawn with a fallback font.`, {
      fixHint: "Add an @font-face with a font file in the project (e.g. @font-face { font-family: 'Brand'; src: url(assets/fonts/brand.woff2) format('woff2'); font-display: block; }), link it from Google Fonts, or use a bundled family (Inter, Roboto, Montserrat, ... see the docs).",
    }),
  ];
}
