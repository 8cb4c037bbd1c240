// The root's canvas, frame rate and length must fit the studio's limits (core/composition/size-limits.ts): render
// nodes are shared, and the Worker and the nodes refuse a composition over one, so the linter says so first.
import { COMPOSITION_LIMITS, findLimitProblems, readRootSize, type LimitAttribute } from "../../composition/size-limits.ts";
import { describeElement } from "../../html/describe-element.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

const { maxSide, maxFps, maxDurationSeconds } = COMPOSITION_LIMITS;
const FIX_HINTS: Record<LimitAttribute, string> = {
  "data-width": `Use a canvas of at most ${maxSide} px a side and 4096x2160 in area, e.g. data-width="3840" data-height="2160" (4K), or render larger with the resolution option.`,
  "data-height": `Use a canvas of at most ${maxSide} px a side, e.g. data-height="2160" (4K); the resolution option scales the output.`,
  "data-fps": `Use at most ${maxFps} fps, e.g. data-fps="60".`,
  "data-duration": `Split the video into parts of at most ${maxDurationSeconds} s (fewer frames at a high fps).`,
};

/** One error per maximum the file's root passes, naming the attribute, its value and the maximum. */
export function checkRootLimits(file: CompositionFile): LintFinding[] {
  if (!file.root) return [];
  const selector = describeElement(file.root);
  return findLimitProblems(readRootSize(file.root)).map((problem) =>
    createFinding("root_over_limit", file.path, `The root element's ${problem.message}.`, { selector, fixHint: FIX_HINTS[problem.attribute] }),
  );
}
