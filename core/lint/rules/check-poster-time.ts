// data-poster-time on the root names the moment a render's poster image shows (core/composition/poster-time.ts).
// A value that is not seconds within the composition's duration is ignored by the render node, which then picks
// its own moment: said here, so the author learns it before the render.
import { parseSeconds } from "../../composition/parse-number-attribute.ts";
import { POSTER_TIME_ATTRIBUTE, readPosterTime } from "../../composition/poster-time.ts";
import { describeElement } from "../../html/describe-element.ts";
import { readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

export function checkPosterTime(file: CompositionFile): LintFinding[] {
  const root = file.root;
  if (!root) return [];
  const duration = parseSeconds(readAttribute(root, "data-duration"));
  const declared = readPosterTime(root, duration);
  if (!declared || !("invalid" in declared)) return [];
  const within = duration !== null && duration > 0 ? ` within its data-duration (0 to below ${duration})` : "";
  return [
    createFinding("root_invalid_poster_time", file.path, `The root element has ${POSTER_TIME_ATTRIBUTE}="${declared.invalid}", which is not a number of seconds${within}; renders' posters use the default moment instead.`, {
      selector: describeElement(root),
      fixHint: `Write the poster's moment in seconds on the composition's clock, e.g. ${POSTER_TIME_ATTRIBUTE}="1.5", or remove it.`,
    }),
  ];
}
