// requestAnimationFrame runs on the wall clock, not on the seeked timeline: a render captures whatever the last
// callback left, so frames differ between renders. An error, as in HyperFrames.
import { describeElement } from "../../html/describe-element.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

// On comment- and string-blanked code: `window.requestAnimationFrame(` counts, `myRequestAnimationFrame(` does not.
const CALL = /(?<![\w$])requestAnimationFrame\s*\(/;

export function checkAnimationFrame(file: CompositionFile): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const script of file.scripts) {
    if (!script.source || !CALL.test(script.source.bare)) continue;
    findings.push(createFinding("requestanimationframe_in_composition", script.file, "The script calls requestAnimationFrame, which runs on the wall clock, not on the timeline the renderer seeks: frames come out wrong or differ between renders.", {
      selector: describeElement(script.element),
      fixHint: "Drive the animation from the timeline instead: tweens, or a tween's onUpdate callback that reads tl.time().",
    }));
  }
  return findings;
}
