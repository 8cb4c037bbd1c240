// HyperFrames media treatments the studio does not render (core/composition/unsupported-features.ts): a warning per
// element and attribute, so an author who follows HyperFrames' docs learns it before a render looks or sounds different.
import { unsupportedUses } from "../../composition/unsupported-features.ts";
import { describeElement } from "../../html/describe-element.ts";
import { readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

export function checkUnsupportedFeatures(file: CompositionFile): LintFinding[] {
  return file.elements.flatMap((element) => {
    const selector = describeElement(element);
    return unsupportedUses((name) => readAttribute(element, name), { name: selector, tag: element.name }).map(({ attribute, message }) =>
      createFinding("hyperframes_feature_unsupported", file.path, `${message}.`, {
        selector,
        fixHint: `Remove ${attribute} (or the part the studio does not render), or bake the effect into the media file before uploading it.`,
      }));
  });
}
