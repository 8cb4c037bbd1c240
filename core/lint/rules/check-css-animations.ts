// CSS animations and transitions advance with real time, not with the paused timeline the renderer seeks, so
// the captured frame depends on render speed. Moving them onto the GSAP timeline makes every frame repeatable.
import { listStyleRules, parseDeclarations, type CssDeclaration } from "../../css/parse-css.ts";
import { describeElement } from "../../html/describe-element.ts";
import { readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

const ANIMATING = new Set(["animation", "animation-name", "transition", "transition-property"]);
const FIX_HINT = "Animate it with the registered timeline instead, e.g. tl.to(selector, { rotation: 360, duration: 2, repeat: 2 }, 0), and remove the CSS animation/transition.";

/** The first declaration that starts a CSS animation or transition, ignoring explicit `none` values. */
function findAnimating(declarations: CssDeclaration[]): CssDeclaration | undefined {
  return declarations.find((declaration) => ANIMATING.has(declaration.property) && !/^(?:none|initial|unset|0s?|all 0s?)$/i.test(declaration.value.trim()));
}

export function checkCssAnimations(file: CompositionFile): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const sheet of file.styles) {
    for (const rule of listStyleRules(sheet.nodes)) {
      const declaration = findAnimating(rule.declarations);
      if (!declaration) continue;
      findings.push(createFinding("css_wall_clock_animation", sheet.file, `"${rule.selector}" uses CSS ${declaration.property}: ${declaration.value}; it runs on the wall clock, so frames depend on render speed instead of the timeline.`, {
        selector: rule.selector,
        fixHint: FIX_HINT,
      }));
    }
  }
  for (const element of file.elements) {
    const declaration = findAnimating(parseDeclarations(readAttribute(element, "style") ?? ""));
    if (!declaration) continue;
    findings.push(createFinding("css_wall_clock_animation", file.path, `An inline style uses CSS ${declaration.property}: ${declaration.value}; it runs on the wall clock, not the timeline.`, {
      selector: describeElement(element),
      fixHint: FIX_HINT,
    }));
  }
  return findings;
}
