// Reports each element whose HyperFrames media treatment the studio does not render, all or part of it (the rules
// are core/composition/unsupported-features.ts, shared with the lint rule): the finding feature-unsupported, once per
// element and attribute. A render's swapped <video> (an <img data-studio-video>) is named as the <video> it was.
import { MEDIA_TREATMENT_FEATURES, unsupportedUses } from "../../../core/composition/unsupported-features.ts";
import { report } from "./findings.ts";

function describe(el: Element): string {
  const tag = el.hasAttribute("data-studio-video") ? "video" : el.nodeName.toLowerCase();
  return el.id ? `${tag}#${el.id}` : tag;
}

export function reportUnsupportedFeatures(fileOf: (el: Element) => string): void {
  const selector = MEDIA_TREATMENT_FEATURES.map((feature) => `[${feature.attribute}]`).join(",");
  const elements = document.querySelectorAll(selector);
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i]!;
    const name = describe(el);
    for (const use of unsupportedUses((attribute) => el.getAttribute(attribute), name)) {
      report("feature-unsupported", fileOf(el), use.message, { selector: name });
    }
  }
}
