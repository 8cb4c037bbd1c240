// The verbose-only note an agent reads to confirm the linter saw what it meant to write.
import { parsePixels, parseSeconds } from "../../composition/parse-number-attribute.ts";
import { hasAttribute, readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import { readTimelineRegistrations } from "../read-timelines.ts";
import type { LintFinding } from "../types.ts";

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? "" : "s"}`;

export function summarizeComposition(file: CompositionFile): LintFinding[] {
  if (!file.root) return [];
  const id = readAttribute(file.root, "data-composition-id") ?? "";
  const duration = parseSeconds(readAttribute(file.root, "data-duration"));
  const width = parsePixels(readAttribute(file.root, "data-width"));
  const height = parsePixels(readAttribute(file.root, "data-height"));
  const count = (name: string): number => file.elements.filter((element) => element.name === name).length;
  const parts = [
    duration === null ? "duration from its host" : `duration ${duration} s`,
    width !== null && height !== null ? `${width}x${height}` : "canvas size unknown",
    plural(readTimelineRegistrations(file).length, "timeline"),
    plural(file.elements.filter((element) => hasAttribute(element, "data-composition-src")).length, "sub-composition"),
    plural(count("audio"), "audio track"),
    plural(count("video"), "video"),
  ];
  return [createFinding("composition_summary", file.path, `Composition "${id}": ${parts.join(", ")}.`)];
}
