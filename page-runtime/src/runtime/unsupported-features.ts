// Reports each element carrying a HyperFrames attribute the studio renders as if absent (the table is
// core/composition/unsupported-features.ts, shared with the lint rule): the finding feature-unsupported, once per
// element and attribute. A render's swapped <video> (an <img data-studio-video>) is named as the <video> it was.
import { UNSUPPORTED_FEATURES, unsupportedFeatureMessage } from "../../../core/composition/unsupported-features.ts";
import { report } from "./findings.ts";

function describe(el: Element): string {
  const tag = el.hasAttribute("data-studio-video") ? "video" : el.nodeName.toLowerCase();
  return el.id ? `${tag}#${el.id}` : tag;
}

export function reportUnsupportedFeatures(fileOf: (el: Element) => string): void {
  for (const feature of UNSUPPORTED_FEATURES) {
    const elements = document.querySelectorAll(`[${feature.attribute}]`);
    for (let i = 0; i < elements.length; i++) {
      const el = elements[i]!;
      const name = describe(el);
      report("feature-unsupported", fileOf(el), unsupportedFeatureMessage(feature, name), { selector: name });
    }
  }
}
