// Reports each element whose HyperFrames media treatment the studio does not render, all or part of it (the rules
// are core/composition/unsupported-features.ts, shared with the lint rule): the finding feature-unsupported, once per
// element and attribute. A render's swapped <video> (an <img data-studio-video>) is named as the <video> it was.
import { MEDIA_TREATMENT_ATTRIBUTES, unsupportedUses } from "../../../core/composition/unsupported-features.ts";
import { report } from "./findings.ts";

function describe(el: Element): { name: string; tag: string } {
  const tag = el.hasAttribute("data-studio-video") ? "video" : el.nodeName.toLowerCase();
  return { name: el.id ? `${tag}#${el.id}` : tag, tag };
}

export function reportUnsupportedFeatures(fileOf: (el: Element) => string): void {
  const selector = MEDIA_TREATMENT_ATTRIBUTES.map((attribute) => `[${attribute}]`).join(",");
  const elements = document.querySelectorAll(selector);
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i]!;
    const element = describe(el);
    for (const use of unsupportedUses((attribute) => el.getAttribute(attribute), element)) {
      report("feature-unsupported", fileOf(el), use.message, { selector: element.name });
    }
  }
}
