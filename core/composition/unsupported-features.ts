// What HyperFrames 0.8.170 renders from its media-treatment attributes that the studio does not (its media-use
// skill teaches them): data-color-grading entirely; in data-fx-chain the effects the studio has no exact filter for
// (audio-fx-chain.ts); in data-automation every lane but volume (audio-automation.ts); either attribute whole when
// it cannot be read. A composition that uses one renders without that part, so the author is told: a lint warning
// (hyperframes_feature_unsupported) and, in a render or check, the finding feature-unsupported (a strict render
// fails on it). One function, read by the lint rule and the page runtime. Pure.
import { parseAutomation } from "./audio-automation.ts";
import { parseFxChain } from "./audio-fx-chain.ts";

export interface UnsupportedFeature {
  attribute: string;
  /** What the attribute does in HyperFrames: "it ..." */
  what: string;
}

/** The attributes the studio reads for media treatments, each with what it does in HyperFrames. */
export const MEDIA_TREATMENT_FEATURES: readonly UnsupportedFeature[] = [
  { attribute: "data-color-grading", what: "grades the element's colours (a preset, adjustments or a LUT)" },
  { attribute: "data-fx-chain", what: "runs the clip's sound through a chain of effects" },
  { attribute: "data-automation", what: "changes the clip's volume, speed or effect parameters over time" },
];

export interface UnsupportedUse {
  attribute: string;
  message: string;
}

/** The message for an element (described as `element`, e.g. "video#intro") whose attribute is not rendered at all. */
export function unsupportedFeatureMessage(feature: UnsupportedFeature, element: string): string {
  return `${feature.attribute} on ${element} is not rendered by the studio (in HyperFrames it ${feature.what}): it renders as if the attribute were absent`;
}

function partialMessage(attribute: string, element: string, parts: string[], without: string): string {
  return `${attribute} on ${element}: ${parts.join(", ")} ${parts.length === 1 ? "is" : "are"} not rendered by the studio (HyperFrames renders ${parts.length === 1 ? "it" : "them"}): ${without}`;
}

/** What of `feature` on `element` (its attribute's value `raw`) goes unrendered, or null when all of it renders. */
function unsupportedPart(feature: UnsupportedFeature, raw: string, element: string): string | null {
  if (feature.attribute === "data-fx-chain") {
    const chain = parseFxChain(raw);
    if (chain.problem) return `${feature.attribute} on ${element} cannot be read (${chain.problem}): the clip sounds without its effects`;
    return chain.unsupported.length > 0 ? partialMessage(feature.attribute, element, chain.unsupported, "the clip sounds without them, the rest of its chain applied") : null;
  }
  if (feature.attribute === "data-automation") {
    const automation = parseAutomation(raw, null);
    if (automation.problem) return `${feature.attribute} on ${element} cannot be read (${automation.problem}): it is ignored`;
    return automation.unsupported.length > 0 ? partialMessage(feature.attribute, element, automation.unsupported, "the clip plays as if those lanes were absent") : null;
  }
  return unsupportedFeatureMessage(feature, element);
}

/** Each media-treatment attribute of an element (`read` gives an attribute's value) whose effect is not all rendered. */
export function unsupportedUses(read: (attribute: string) => string | null, element: string): UnsupportedUse[] {
  return MEDIA_TREATMENT_FEATURES.flatMap((feature) => {
    const raw = read(feature.attribute);
    if (raw === null) return [];
    const message = unsupportedPart(feature, raw, element);
    return message === null ? [] : [{ attribute: feature.attribute, message }];
  });
}
