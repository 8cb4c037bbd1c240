// Web fonts need an explicit display policy so text never renders invisibly or swaps mid-render unpredictably.
import { listAtRules } from "../../css/parse-css.ts";
import { readImportTarget } from "../../css/extract-css-urls.ts";
import { describeElement } from "../../html/describe-element.ts";
import { readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

// Hosted font stylesheets that take a `display=` query parameter.
const FONT_CSS_HOST = /^(?:https?:)?\/\/(?:fonts\.googleapis\.com|fonts\.bunny\.net|api\.fontshare\.com|fonts\.cdnfonts\.com)\//i;

function lacksDisplayParameter(url: string): boolean {
  return FONT_CSS_HOST.test(url.trim()) && !/[?&]display=[a-z]+/i.test(url);
}

const DISPLAY_HINT = "Add &display=swap to the font URL, e.g. https://fonts.googleapis.com/css2?family=Inter:wght@400;700&display=swap";

export function checkWebFonts(file: CompositionFile): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const element of file.elements) {
    if (element.name !== "link") continue;
    const href = readAttribute(element, "href") ?? "";
    if (!/\bstylesheet\b/i.test(readAttribute(element, "rel") ?? "") || !lacksDisplayParameter(href)) continue;
    findings.push(createFinding("font_display_missing", file.path, `The web font stylesheet ${href} has no display= parameter.`, {
      selector: describeElement(element),
      fixHint: DISPLAY_HINT,
    }));
  }
  for (const sheet of file.styles) {
    for (const atRule of listAtRules(sheet.nodes)) {
      if (atRule.name === "import") {
        const target = readImportTarget(atRule.prelude);
        if (target && lacksDisplayParameter(target)) {
          findings.push(createFinding("font_display_missing", sheet.file, `The font @import ${target} has no display= parameter.`, { selector: `@import ${atRule.prelude}`, fixHint: DISPLAY_HINT }));
        }
      } else if (atRule.name === "font-face" && !atRule.declarations.some((declaration) => declaration.property === "font-display")) {
        const family = atRule.declarations.find((declaration) => declaration.property === "font-family")?.value ?? "a font";
        findings.push(createFinding("font_display_missing", sheet.file, `@font-face for ${family} has no font-display.`, { selector: "@font-face", fixHint: "Add font-display: swap; (or block) inside the @font-face rule." }));
      }
    }
  }
  return findings;
}
