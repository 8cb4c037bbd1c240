// `repeat: -1` makes a tween (and its timeline) infinitely long. The renderer stops at data-duration, so it
// renders, but the timeline's own duration no longer says how long the video is. A warning, as in HyperFrames
// when the root declares a finite data-duration (a root without one is already an error: root_missing_attribute).
import { describeElement } from "../../html/describe-element.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

// On comment-stripped code (strings kept, as `repeat: -1` is code, never text); `-10` is not `-1`.
const INFINITE = /(?<![\w$])repeat\s*:\s*-1(?![\d.])/g;

export function checkInfiniteRepeat(file: CompositionFile): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const script of file.scripts) {
    if (!script.source) continue;
    const { code, bare } = script.source;
    for (const match of code.matchAll(INFINITE)) {
      // Inside a string literal (blanked in `bare`) it is text, not a tween option.
      if (bare.slice(match.index, match.index + 6) !== "repeat") continue;
      findings.push(createFinding("gsap_infinite_repeat", script.file, "A tween uses repeat: -1 (repeat forever), so the timeline has no end of its own; the video is cut at the root's data-duration.", {
        selector: describeElement(script.element),
        fixHint: "Use a finite count that fills the composition, e.g. repeat: Math.max(0, Math.floor(duration / cycle) - 1).",
      }));
    }
  }
  return findings;
}
