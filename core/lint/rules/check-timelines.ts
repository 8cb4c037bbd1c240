// The renderer seeks window.__timelines[<composition-id>] frame by frame; that timeline must exist and be paused.
import { describeElement } from "../../html/describe-element.ts";
import { readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import { readTimelineCreations, readTimelineRegistrations, type TimelineCreation } from "../read-timelines.ts";
import type { LintFinding } from "../types.ts";

const PAUSED_OPTION = /(?<![\w$])paused\s*:\s*(?:true|!0)\b/;
// Fire-and-forget tweens at statement level (not an argument of tl.add(...) and the like).
const GLOBAL_TWEEN = /(?:^|[;{}]|\n)\s*gsap\s*\.\s*(to|from|fromTo)\s*\(/g;

function isPaused(creation: TimelineCreation): boolean {
  if (PAUSED_OPTION.test(creation.args)) return true;
  if (!creation.variable || !creation.script.source) return false;
  const name = creation.variable.replace(/\$/g, "\\$");
  return new RegExp(`(?<![\\w$.])${name}\\s*\\.\\s*(?:pause\\s*\\(\\s*\\)|paused\\s*\\(\\s*true\\s*\\))`).test(creation.script.source.bare);
}

export function checkTimelines(file: CompositionFile): LintFinding[] {
  const findings: LintFinding[] = [];
  const registrations = readTimelineRegistrations(file);
  const registeredNames = new Set(registrations.map((registration) => /^[A-Za-z_$][\w$]*/.exec(registration.value)?.[0]).filter(Boolean));
  for (const creation of readTimelineCreations(file)) {
    // Only timelines the renderer drives must be paused; a child timeline added to a parent must keep playing.
    const driven = creation.registeredDirectly || (creation.variable !== null && registeredNames.has(creation.variable));
    if (!driven || isPaused(creation)) continue;
    findings.push(createFinding("timeline_not_paused", creation.script.file, `The timeline${creation.variable ? ` "${creation.variable}"` : ""} registered on window.__timelines is created without paused: true, so it plays on the wall clock while the renderer seeks it.`, {
      selector: describeElement(creation.script.element),
      fixHint: "Create it with gsap.timeline({ paused: true }).",
    }));
  }
  const ids = new Set(file.elements.map((element) => readAttribute(element, "data-composition-id")?.trim()).filter(Boolean));
  for (const registration of registrations) {
    if (registration.key === null || ids.has(registration.key)) continue;
    findings.push(createFinding("timeline_unknown_id", registration.script.file, `A timeline is registered as window.__timelines["${registration.key}"], but no element in ${file.path} has data-composition-id="${registration.key}", so nothing drives it.`, {
      selector: describeElement(registration.script.element),
      fixHint: `Register it under the root's id${file.root ? ` ("${readAttribute(file.root, "data-composition-id") ?? ""}")` : ""}, or fix the id on the root element.`,
    }));
  }
  const rootId = file.root ? readAttribute(file.root, "data-composition-id")?.trim() : undefined;
  const hasUnresolved = registrations.some((registration) => registration.key === null);
  // A sub-composition that makes no timeline at all is still: nothing to seek, and it renders as it is (in
  // HyperFrames too, which says nothing). The entry, and a file that makes a timeline, must register one.
  const still = !file.isEntry && registrations.length === 0 && readTimelineCreations(file).length === 0;
  if (rootId && !hasUnresolved && !still && !registrations.some((registration) => registration.key === rootId)) {
    findings.push(createFinding("timeline_not_registered", file.path, `No timeline is registered for composition "${rootId}", so the renderer has nothing to seek.`, {
      selector: file.root ? describeElement(file.root) : undefined,
      fixHint: `In a script: const tl = gsap.timeline({ paused: true }); /* tweens */ window.__timelines = window.__timelines || {}; window.__timelines["${rootId}"] = tl;`,
    }));
  }
  for (const script of file.scripts) {
    if (!script.source) continue;
    for (const match of script.source.bare.matchAll(GLOBAL_TWEEN)) {
      findings.push(createFinding("gsap_global_tween", script.file, `gsap.${match[1]}() runs on GSAP's global clock, outside the paused timeline the renderer seeks, so it plays in real time.`, {
        selector: describeElement(script.element),
        fixHint: `Add it to the registered timeline instead: tl.${match[1]}(...).`,
      }));
    }
  }
  return findings;
}
