// The root element (first data-composition-id) defines the composition's id, timing and canvas.
import { parsePixels, parseSeconds } from "../../composition/parse-number-attribute.ts";
import { describeElement } from "../../html/describe-element.ts";
import { readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

const EXAMPLE_ROOT = '<div id="root" data-composition-id="my-video" data-start="0" data-duration="6" data-width="1920" data-height="1080">';

export function checkRoot(file: CompositionFile): LintFinding[] {
  const root = file.root;
  if (!root) {
    return [
      createFinding("root_missing", file.path, "No element carries data-composition-id, so the renderer cannot find this composition's root.", {
        fixHint: `Wrap the scene in a root element inside <body>, e.g. ${EXAMPLE_ROOT}`,
      }),
    ];
  }
  const findings: LintFinding[] = [];
  const selector = describeElement(root);
  const id = readAttribute(root, "data-composition-id") ?? "";
  if (!id.trim()) {
    findings.push(createFinding("root_missing_attribute", file.path, "The root element's data-composition-id is empty.", {
      selector,
      fixHint: 'Give it the project slug, e.g. data-composition-id="my-video".',
    }));
  }
  // Sub-composition files take their start and duration from the host element, so only the entry needs them.
  const required = file.isEntry ? ["data-start", "data-duration", "data-width", "data-height"] : ["data-width", "data-height"];
  for (const name of required) {
    if (readAttribute(root, name) !== null) continue;
    const value = { "data-start": "0", "data-duration": "6", "data-width": "1920", "data-height": "1080" }[name] ?? "";
    // Without data-start the root starts at 0 all the same (as in HyperFrames): a studio rule, not a broken render.
    const code = name === "data-start" ? "root_missing_start" : "root_missing_attribute";
    const why = name === "data-start" ? "the composition starts at 0" : `the renderer needs it to know the composition's ${name === "data-duration" ? "timing" : "canvas size"}`;
    findings.push(createFinding(code, file.path, `The root element has no ${name}; ${why}.`, {
      selector,
      fixHint: `Add ${name}="${value}" to the root element (${value} is an example; use your composition's value).`,
    }));
  }
  const start = readAttribute(root, "data-start");
  if (start !== null && parseSeconds(start) !== 0) {
    findings.push(createFinding("root_start_not_zero", file.path, `The root element has data-start="${start}"; a composition's own clock starts at 0.`, {
      selector,
      fixHint: 'Set data-start="0" on the root; delay scenes with data-start on children or timeline positions instead.',
    }));
  }
  const durationText = readAttribute(root, "data-duration");
  const duration = parseSeconds(durationText);
  if (durationText !== null && (duration === null || duration <= 0)) {
    findings.push(createFinding("root_invalid_duration", file.path, `The root element has data-duration="${durationText}", which is not a positive number of seconds.`, {
      selector,
      fixHint: 'Write the length in seconds, e.g. data-duration="6".',
    }));
  }
  for (const name of ["data-width", "data-height"]) {
    const text = readAttribute(root, name);
    const pixels = parsePixels(text);
    if (text !== null && (pixels === null || pixels <= 0)) {
      findings.push(createFinding("root_invalid_size", file.path, `The root element has ${name}="${text}", which is not a positive whole number of pixels.`, {
        selector,
        fixHint: `Write whole pixels, e.g. ${name}="${name === "data-width" ? 1920 : 1080}".`,
      }));
    }
  }
  return findings;
}
