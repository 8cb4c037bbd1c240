// After a composition loads: which font families it asks for were drawn with a fallback font instead (no
// @font-face in the project, not a bundled family, a Google family the job did not ship, a font file that did not
// load). Each is a finding, never a silent substitution; under strict the render fails naming file and family.
import type { Page } from "puppeteer-core";
import { makeFinding, type Finding } from "../../../core/protocol/finding.ts";
import type { FontUse } from "./bundled-fonts.ts";
import { readFontFallbacks } from "../../../core/protocol/read-page-answers.ts";
import { pageReportFinding } from "../../../core/protocol/read-page-report.ts";

/** `font fallback: "Foo" in index.html, css/a.css is not available; …`, on the first file that names the family. */
export function fontFallbackFinding(use: FontUse): Finding {
  return makeFinding("font-fallback", use.files[0] ?? "index.html", `font fallback: "${use.family}" in ${use.files.join(", ")} is not available (no @font-face in the project, not a bundled family, not a Google Fonts family the studio could get); text is drawn with a fallback font`, {
    fixHint: "add an @font-face with a font file in the project, link the family from Google Fonts, or use a bundled family (Inter, Roboto, Montserrat, ...)",
  });
}

/**
 * Families this page draws text in (the first family of each text element's computed font-family, whichever
 * stylesheet, attribute or script set it) that it cannot draw: after asking the page to load each one, text set in
 * it measures exactly as the fallback does against two different fallbacks. Runs in the page.
 */
async function fallenBackFamilies(): Promise<string[]> {
  const generic = /^(serif|sans-serif|monospace|cursive|fantasy|system-ui|ui-serif|ui-sans-serif|ui-monospace|ui-rounded|math|emoji|fangsong|-apple-system|blinkmacsystemfont)$/i;
  const families = new Map<string, string>();
  for (const element of Array.from(document.querySelectorAll("body, body *")).slice(0, 5000)) {
    if (/^(SCRIPT|STYLE|TEMPLATE|NOSCRIPT|TITLE)$/.test(element.tagName)) continue;
    if (!Array.from(element.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim())) continue;
    const first = (getComputedStyle(element).fontFamily.split(",")[0] ?? "").trim().replace(/^['"]|['"]$/g, "").trim();
    if (first && !generic.test(first) && !families.has(first.toLowerCase())) families.set(first.toLowerCase(), first);
  }
  const canvas = document.createElement("canvas").getContext("2d");
  if (!canvas) return [];
  const sample = "The quick brown fox jumps over the lazy dog 0123456789 WMImwil";
  const width = (font: string) => {
    canvas.font = font;
    return canvas.measureText(sample).width;
  };
  const missing: string[] = [];
  for (const family of families.values()) {
    const quoted = JSON.stringify(family);
    await Promise.all(["400", "700"].map((weight) => document.fonts.load(`${weight} 48px ${quoted}`, sample).catch((error: unknown) => {
      // A family the browser cannot load is measured as it falls back, which is what this looks for.
      console.debug("studio: font not loaded", family, error);
      return [];
    })));
    const same = ["monospace", "serif"].every((fallback) => width(`48px ${quoted}, ${fallback}`) === width(`48px ${fallback}`));
    if (same) missing.push(family);
  }
  return missing;
}

/** The fonts that fell back on this page, with the project files that name them (`composition` when none does). */
export async function findFontFallbacks(page: Page, origin: string, composition: string, onFinding: (finding: Finding) => void): Promise<FontUse[]> {
  const response = await fetch(`${origin}/__studio/fonts/uses.json`);
  const uses = response.ok ? ((await response.json()) as FontUse[]) : [];
  // The families come from the page (its styles, its canvas): parsed, each forged one left out with a finding.
  const read = readFontFallbacks(await page.evaluate(fallenBackFamilies));
  for (const problem of read.problems) onFinding(pageReportFinding(composition, problem));
  const missing = read.value;
  return missing.map((family) => uses.find((use) => use.family.toLowerCase() === family.toLowerCase()) ?? { family, files: [composition] });
}
