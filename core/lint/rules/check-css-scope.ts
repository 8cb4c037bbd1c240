// Sub-compositions share the entry's document, so every rule must be scoped to its composition or it leaks.
import { listStyleRules, splitSelectorList } from "../../css/parse-css.ts";
import { readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

// Page-level selectors that may stay unscoped: the canvas itself and resets.
const PAGE_SELECTOR = /^(?:html|body|:root|\*|\*::?(?:before|after)|::?(?:before|after)|html\s*>?\s*body|html\s*,\s*body)(?:::?(?:before|after))?$/i;
const SCOPE = /\[\s*data-composition-id\s*(?:[~|^$*]?=\s*(?:"[^"]*"|'[^']*'|[^\]\s]+)\s*)?\]/i;

/** True when a single selector is page-level or mentions a [data-composition-id] scope. */
export function isScopedSelector(selector: string): boolean {
  const normalized = selector.replace(/\s+/g, " ").trim();
  if (PAGE_SELECTOR.test(normalized)) return true;
  // `html body [data-composition-id=x] h1` and `[data-composition-id="x"].title` both count.
  return SCOPE.test(normalized);
}

export function checkCssScope(file: CompositionFile): LintFinding[] {
  const findings: LintFinding[] = [];
  const id = (file.root ? readAttribute(file.root, "data-composition-id") : null)?.trim() || "<id>";
  for (const sheet of file.styles) {
    for (const rule of listStyleRules(sheet.nodes)) {
      const unscoped = splitSelectorList(rule.selector).filter((selector) => !isScopedSelector(selector));
      if (unscoped.length === 0) continue;
      const first = unscoped[0] ?? "";
      findings.push(createFinding("css_unscoped_selector", sheet.file, `The CSS selector "${unscoped.join(", ")}" is not scoped under [data-composition-id="${id}"], so it can leak into other compositions in the same page.`, {
        selector: rule.selector,
        fixHint: `Prefix it: [data-composition-id="${id}"] ${first} { ... }`,
      }));
    }
  }
  return findings;
}
