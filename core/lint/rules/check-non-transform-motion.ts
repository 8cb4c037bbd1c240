// Tweening layout or text-reflow properties (left/top/margin, letterSpacing, wordSpacing, fontSize) or rounding
// with roundProps snaps to whole pixels on every frame, so slow motion stutters in a frame-by-frame render.
// Transforms (x, y, scale) move by fractions of a pixel. An error, as in HyperFrames.
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import { readGsapTweens } from "../read-gsap-tweens.ts";
import type { LintFinding } from "../types.ts";

/** Layout properties and the transform that moves the same way. */
const LAYOUT: Record<string, string> = {
  left: "x", right: "x", marginLeft: "x", marginRight: "x",
  top: "y", bottom: "y", marginTop: "y", marginBottom: "y", margin: "x/y",
};
const REFLOW = new Set(["letterSpacing", "wordSpacing", "fontSize"]);

export function checkNonTransformMotion(file: CompositionFile): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const script of file.scripts) {
    for (const tween of readGsapTweens(script)) {
      if (tween.method === "set") continue;
      const layout = tween.properties.filter((p) => Object.hasOwn(LAYOUT, p));
      const reflow = tween.properties.filter((p) => REFLOW.has(p));
      const rounds = tween.properties.includes("roundProps");
      if (layout.length === 0 && reflow.length === 0 && !rounds) continue;
      const flagged = [...layout, ...reflow, ...(rounds ? ["roundProps"] : [])];
      const fixes: string[] = [];
      if (layout.length > 0) fixes.push(`animate ${[...new Set(layout.map((p) => LAYOUT[p]))].join(", ")} instead of ${layout.join("/")}`);
      if (reflow.includes("fontSize")) fixes.push("animate scale instead of fontSize");
      if (reflow.some((p) => p !== "fontSize")) fixes.push("for letter or word spacing, split the text into spans and animate each one's x, or keep the spacing fixed");
      if (rounds) fixes.push("remove roundProps");
      findings.push(createFinding("gsap_non_transform_motion", script.file, `The tween ${tween.text.length > 120 ? `${tween.text.slice(0, 117)}...` : tween.text} animates ${flagged.join(", ")}, which snaps to whole pixels on every frame, so the motion stutters in the render.`, {
        ...(tween.selector !== null ? { selector: tween.selector } : {}),
        fixHint: `${fixes.join("; ")}.`,
      }));
    }
  }
  return findings;
}
