// What HyperFrames 0.8.170 renders from its media-treatment attributes that the studio does not (its media-use
// skill teaches them): in data-color-grading on an <img> or <video> the looks beyond colour (color-grading.ts); in
// data-fx-chain the effects the studio has no exact filter for
// (audio-fx-chain.ts); in data-automation the effect-parameter lanes and a speed lane's curves through viaX/viaY
// (audio-automation.ts; volume and speed lanes render); either attribute whole when
// it cannot be read. A composition that uses one renders without that part, so the author is told: a lint warning
// (hyperframes_feature_unsupported) and, in a render or check, the finding feature-unsupported (a strict render
// fails on it). One function, read by the lint rule and the page runtime. Pure.
import { parseAutomation } from "./audio-automation.ts";
import { parseFxChain } from "./audio-fx-chain.ts";
import { parseColorGrading } from "./color-grading.ts";

/** The attributes the studio reads for media treatments. */
export const MEDIA_TREATMENT_ATTRIBUTES = ["data-color-grading", "data-fx-chain", "data-automation"] as const;

export interface UnsupportedUse {
  attribute: string;
  message: string;
}

function partialMessage(attribute: string, element: string, parts: string[], without: string): string {
  return `${attribute} on ${element}: ${parts.join(", ")} ${parts.length === 1 ? "is" : "are"} not rendered by the studio (HyperFrames renders ${parts.length === 1 ? "it" : "them"}): ${without}`;
}

/** What of `feature` on `element` (its attribute's value `raw`) goes unrendered, or null when all of it renders. */
function unsupportedPart(attribute: string, raw: string, element: string): string | null {
  if (attribute === "data-fx-chain") {
    const chain = parseFxChain(raw);
    if (chain.problem) return `${attribute} on ${element} cannot be read (${chain.problem}): the clip sounds without its effects`;
    return chain.unsupported.length > 0 ? partialMessage(attribute, element, chain.unsupported, "the clip sounds without that, the rest of its chain applied") : null;
  }
  if (attribute === "data-automation") {
    const automation = parseAutomation(raw, null);
    if (automation.problem) return `${attribute} on ${element} cannot be read (${automation.problem}): it is ignored`;
    return automation.unsupported.length > 0 ? partialMessage(attribute, element, automation.unsupported, "the clip plays as if that were absent") : null;
  }
  const grading = parseColorGrading(raw);
  return grading.unsupported.length > 0 ? partialMessage(attribute, element, grading.unsupported, "the element is graded, without that") : null;
}

/**
 * Each media-treatment attribute of an element (`read` gives an attribute's value; `name` describes it, `tag` is its
 * lower-case tag, a render's swapped <video> included) whose effect is not all rendered.
 */
export function unsupportedUses(read: (attribute: string) => string | null, element: { name: string; tag: string }): UnsupportedUse[] {
  return MEDIA_TREATMENT_ATTRIBUTES.flatMap((attribute) => {
    const raw = read(attribute);
    if (raw === null) return [];
    // HyperFrames grades only <img> and <video>, as the studio does: elsewhere the attribute does nothing on both.
    if (attribute === "data-color-grading" && element.tag !== "img" && element.tag !== "video") return [];
    const message = unsupportedPart(attribute, raw, element.name);
    return message === null ? [] : [{ attribute, message }];
  });
}
