// One finding, as data, from wherever it arises (the page runtime, the node's request policy, its font check, the
// plan) to the Worker, the API and the log: `{ code, severity, file, selector?, time?, message }`. Text is made only
// at the edge (formatFindingLine for log lines); nothing reads a finding back out of text.

/** Every finding code, with its severity: one table, so the node, the check endpoint and the docs never drift. */
export const FINDING_SEVERITY = {
  // What check reports (core/browser/check-findings.ts) and renders log.
  "composition-load-failed": "error",
  "console-error": "error",
  "page-error": "error",
  "request-failed": "error",
  "missing-asset": "error",
  "request-blocked": "warning",
  "timeline-not-registered": "warning",
  "font-fallback": "warning",
  "duration-mismatch": "warning",
  "text-clipped": "warning",
  "text-overflow": "warning",
  "off-canvas": "warning",
  "text-overlap": "warning",
  // Only renders meet these.
  "gsap-version-substituted": "warning",
  "gsap-file-missing": "error",
  "fps-not-a-rate": "warning",
  // A range render's `to` past the page's end: rendered to the end (core/render/render-range.ts).
  "range-past-end": "warning",
  "media-not-project-file": "warning",
  "variable-mismatch": "warning",
  // A data-start naming a clip that does not exist, or a cycle of them (core/composition/clip-start.ts).
  "start-unresolved": "error",
  "shader-transition-unsupported": "warning",
  // A library the studio replaces (HyperFrames' shader transitions) loaded in a form it did not recognise: not
  // rendered as its author meant (render-node/src/browser/foreign-libraries.ts).
  "library-unsupported": "warning",
  // A HyperFrames attribute the studio renders as if absent (core/composition/unsupported-features.ts).
  "feature-unsupported": "warning",
  // A value the page reported to the node that does not parse (core/protocol/page-report.ts): a script replaced
  // what the runtime answers. The field is named; the value is refused or left out, never used.
  "page-report-invalid": "error",
} as const satisfies Record<string, "error" | "warning" | "info">;

export type FindingCode = keyof typeof FINDING_SEVERITY;
export const FINDING_CODES = Object.keys(FINDING_SEVERITY) as [FindingCode, ...FindingCode[]];

/** Zod-free, so the page runtime bundles it; core/protocol/finding-schema.ts validates the same shape. */
export interface Finding {
  code: FindingCode;
  severity: "error" | "warning" | "info";
  /** The project file the finding is about (where the fix goes). */
  file: string;
  selector?: string;
  /** Composition time (seconds) where it arose, when it arose at one. */
  time?: number;
  message: string;
  fixHint?: string;
  /** The project path a missing-asset or composition-load-failed finding is about (to report each file once). */
  asset?: string;
}

/** Longest texts a finding carries (finding-schema.ts refuses longer ones; makeFinding shortens them). */
export const FINDING_LIMITS = { file: 1000, selector: 1000, message: 4000, fixHint: 2000 } as const;

/** `text`, cut to `max` characters with an ellipsis: a page's error message can be any length. */
export function clampText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A finding of `code` with its severity from the table; undefined extras are left out, long texts shortened. */
export function makeFinding(code: FindingCode, file: string, message: string, extra: Partial<Pick<Finding, "selector" | "time" | "fixHint" | "asset">> = {}): Finding {
  const finding: Finding = { code, severity: FINDING_SEVERITY[code], file: clampText(file, FINDING_LIMITS.file), message: clampText(message, FINDING_LIMITS.message) };
  if (extra.selector !== undefined) finding.selector = clampText(extra.selector, FINDING_LIMITS.selector);
  if (extra.time !== undefined) finding.time = extra.time;
  if (extra.fixHint !== undefined) finding.fixHint = clampText(extra.fixHint, FINDING_LIMITS.fixHint);
  if (extra.asset !== undefined) finding.asset = clampText(extra.asset, FINDING_LIMITS.file);
  return finding;
}

/** The log line of a finding (the render log, the snapshot log): `finding: <message>`. */
export function formatFindingLine(finding: Finding): string {
  return `finding: ${finding.message}`;
}

/** The failure a strict render ends with on a finding. */
export function strictFailure(finding: Finding): Error {
  return new Error(`${finding.message}; strict renders fail on it`);
}
