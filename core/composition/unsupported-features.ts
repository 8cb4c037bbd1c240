// HyperFrames 0.8.170 attributes the studio does not render: its media treatments and audio tooling (its media-use
// skill teaches them). A composition that uses one renders as if the attribute were absent, so the author is told:
// a lint warning (hyperframes_feature_unsupported) and, in a render or check, the finding feature-unsupported (a
// strict render fails on it). One table, read by the lint rule and the page runtime. Pure.

export interface UnsupportedFeature {
  attribute: string;
  /** What the attribute does in HyperFrames: "it ..." */
  what: string;
}

export const UNSUPPORTED_FEATURES: readonly UnsupportedFeature[] = [
  { attribute: "data-color-grading", what: "grades the element's colours (a preset, adjustments or a LUT)" },
  { attribute: "data-fx-chain", what: "runs the clip's sound through a chain of effects" },
  { attribute: "data-automation", what: "changes the clip's volume, speed or effect parameters over time" },
];

/** The message for an element (described as `element`, e.g. "video#intro") carrying an unsupported attribute. */
export function unsupportedFeatureMessage(feature: UnsupportedFeature, element: string): string {
  return `${feature.attribute} on ${element} is not rendered by the studio (in HyperFrames it ${feature.what}): it renders as if the attribute were absent`;
}
