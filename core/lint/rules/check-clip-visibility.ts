// An element with class "clip" (and data-start/data-duration) is shown and hidden by the runtime on its own
// schedule. A tween that writes visibility, display or autoAlpha (which sets visibility too) on it fights the
// runtime: the clip shows when it should not, or never shows. An error, as in HyperFrames.
import { readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import { readGsapTweens } from "../read-gsap-tweens.ts";
import type { LintFinding } from "../types.ts";

const VISIBILITY = new Set(["visibility", "display", "autoAlpha"]);

/** `#id` and `.class` selectors that name a clip element (the class `clip` itself names every clip, not one). */
function clipSelectors(file: CompositionFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const element of file.elements) {
    const classes = (readAttribute(element, "class") ?? "").split(/\s+/).filter(Boolean);
    if (!classes.includes("clip")) continue;
    const id = readAttribute(element, "id");
    const described = `<${element.name}${id ? ` id="${id}"` : ""} class="${classes.join(" ")}">`;
    if (id) out.set(`#${id}`, described);
    for (const name of classes) if (name !== "clip") out.set(`.${name}`, described);
  }
  return out;
}

export function checkClipVisibility(file: CompositionFile): LintFinding[] {
  const clips = clipSelectors(file);
  if (clips.size === 0) return [];
  const findings: LintFinding[] = [];
  for (const script of file.scripts) {
    for (const tween of readGsapTweens(script)) {
      if (tween.selector === null) continue;
      const element = clips.get(tween.selector.trim());
      const props = tween.properties.filter((p) => VISIBILITY.has(p));
      if (!element || props.length === 0) continue;
      findings.push(createFinding("gsap_animates_clip_element", script.file, `A tween sets ${props.join(", ")} on "${tween.selector}", which is the clip element ${element}; the runtime shows and hides clips itself, so the two fight.`, {
        selector: tween.selector,
        fixHint: "Tween opacity instead, or wrap the content in a child <div> and animate that.",
      }));
    }
  }
  return findings;
}
