// Every frame must come out the same on every render: no randomness, no wall clock, no timers, no network.
// (requestAnimationFrame has its own rule, check-animation-frame.ts, with HyperFrames' code.)
import { describeElement } from "../../html/describe-element.ts";
import { createFinding } from "../create-finding.ts";
import type { LintCode } from "../lint-rules.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

interface Pattern {
  code: LintCode;
  name: string;
  pattern: RegExp;
  fixHint: string;
}

// `(?<![\w$.])` keeps `foo.fetch(` or `mySetTimeout(` from matching; `window.` and `globalThis.` prefixes still do.
const API = (expression: string): RegExp => new RegExp(`(?<![\\w$])(?:(?:window|globalThis|self)\\s*\\.\\s*)?${expression}`);

const PATTERNS: Pattern[] = [
  { code: "nondeterministic_api", name: "Math.random", pattern: API("Math\\s*\\.\\s*random\\b"), fixHint: "Use a seeded generator (e.g. a small mulberry32 with a fixed seed), or write the values out." },
  { code: "nondeterministic_api", name: "crypto.getRandomValues", pattern: API("crypto\\s*\\.\\s*getRandomValues\\b"), fixHint: "Use a seeded generator (e.g. a small mulberry32 with a fixed seed), or write the values out." },
  { code: "nondeterministic_api", name: "gsap.utils.random", pattern: API("gsap\\s*\\.\\s*utils\\s*\\.\\s*random\\s*\\("), fixHint: "Each render browser draws its own values, so frames from different browsers disagree: use a seeded generator, or write the values out." },
  { code: "nondeterministic_api", name: "Date.now", pattern: API("Date\\s*\\.\\s*now\\b"), fixHint: "Derive time from the timeline (tl.time()) instead of the wall clock." },
  { code: "nondeterministic_api", name: "setTimeout", pattern: API("setTimeout\\s*\\("), fixHint: "Schedule it on the timeline: tl.call(fn, [], <seconds>) or a tween's position parameter." },
  { code: "nondeterministic_api", name: "setInterval", pattern: API("setInterval\\s*\\("), fixHint: "Use a repeating tween on the timeline (repeat: -1 or a fixed count) instead of a timer." },
  { code: "nondeterministic_api", name: "fetch", pattern: API("fetch\\s*\\("), fixHint: "Put the data in the project (e.g. inline it in the script) instead of fetching it at render time." },
  { code: "nondeterministic_time", name: "new Date()", pattern: /(?<![\w$])new\s+Date\b(?:\s*\(\s*\)|(?!\s*\())/, fixHint: "Write a fixed date, e.g. new Date(\"2025-01-01T00:00:00Z\"), or a literal string." },
  { code: "nondeterministic_time", name: "performance.now", pattern: API("performance\\s*\\.\\s*now\\b"), fixHint: "Derive time from the timeline (tl.time()) instead of the wall clock." },
];

export function checkDeterminism(file: CompositionFile): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const script of file.scripts) {
    if (!script.source) continue;
    for (const { code, name, pattern, fixHint } of PATTERNS) {
      if (!pattern.test(script.source.bare)) continue;
      const effect = code === "nondeterministic_api" ? "frames differ between renders and seeking breaks" : "the result depends on when the frame is rendered";
      findings.push(createFinding(code, script.file, `The script uses ${name}; ${effect}.`, { selector: describeElement(script.element), fixHint }));
    }
  }
  return findings;
}
