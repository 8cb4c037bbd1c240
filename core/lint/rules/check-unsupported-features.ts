// HyperFrames attributes the studio renders as if absent (core/composition/unsupported-features.ts): a warning per
// element, so an author who follows HyperFrames' docs learns it before a render looks or sounds different.
import { UNSUPPORTED_FEATURES, unsupportedFeatureMessage } from "../../composition/unsupported-features.ts";
import { describeElement } from "../../html/describe-element.ts";
import { hasAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

export function checkUnsupportedFeatures(file: CompositionFile): LintFinding[] {
  return file.elements.flatMap((element) =>
    UNSUPPORTED_FEATURES.filter((feature) => hasAttribute(element, feature.attribute)).map((feature) => {
      const selector = describeElement(element);
      return createFinding("hyperframes_feature_unsupported", file.path, `${unsupportedFeatureMessage(feature, selector)}.`, {
        selector,
        fixHint: `Remove ${feature.attribute}, or bake the effect into the media file before uploading it.`,
      });
    }),
  );
}
