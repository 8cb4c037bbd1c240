// Findings of the browser check: the lint finding shape plus where on the timeline (`time`) and on the canvas (`box`).
import type { LintFinding, LintResult, LintSeverity } from "../lint/types.ts";
import { clampText, FINDING_LIMITS, FINDING_SEVERITY, type Finding } from "../protocol/finding.ts";

export type CheckCode =
  | "composition-load-failed"
  | "console-error"
  | "page-error"
  | "request-failed"
  | "request-blocked"
  | "missing-asset"
  | "timeline-not-registered"
  | "font-fallback"
  | "duration-mismatch"
  | "text-clipped"
  | "text-overflow"
  | "off-canvas"
  | "text-overlap"
  | "start-unresolved"
  | "feature-unsupported"
  | "page-report-invalid";

export const CHECK_CODES: [CheckCode, ...CheckCode[]] = [
  "composition-load-failed", "console-error", "page-error", "request-failed", "missing-asset", "request-blocked",
  "timeline-not-registered", "font-fallback", "duration-mismatch", "text-clipped", "text-overflow", "off-canvas", "text-overlap",
  "start-unresolved", "feature-unsupported", "page-report-invalid",
];

/** Severity by code: core/protocol/finding.ts's one table, so it never drifts between the node and the docs. */
export const CHECK_SEVERITY: Record<CheckCode, LintSeverity> = Object.fromEntries(CHECK_CODES.map((code) => [code, FINDING_SEVERITY[code]])) as Record<CheckCode, LintSeverity>;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CheckFinding {
  code: CheckCode;
  severity: LintSeverity;
  message: string;
  file: string;
  selector?: string;
  fixHint?: string;
  /** Composition time (seconds) where it was first seen; layout findings seen again list every time in `times`. */
  time?: number;
  times?: number[];
  box?: Box;
}

export interface CheckSection {
  ok: boolean;
  errorCount: number;
  warningCount: number;
  infoCount: number;
  findings: CheckFinding[];
}

export interface CheckResult {
  ok: boolean;
  strict: boolean;
  errorCount: number;
  warningCount: number;
  infoCount: number;
  lint: LintResult;
  runtime: CheckSection;
  layout: CheckSection & { times: number[] };
}

export function checkFinding(code: CheckCode, file: string, message: string, extra: Partial<Omit<CheckFinding, "code" | "severity" | "message" | "file">> = {}): CheckFinding {
  const finding: CheckFinding = { code, severity: CHECK_SEVERITY[code], message: clampText(message, FINDING_LIMITS.message), file: clampText(file, FINDING_LIMITS.file) };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) (finding as unknown as Record<string, unknown>)[key] = value;
  return finding;
}

/** A finding of the render pipeline as check reports it (the same fields; `asset` is the node's own bookkeeping). */
export function checkFindingOf(finding: CheckFinding & Pick<Finding, "asset">): CheckFinding {
  const { asset: _asset, ...fields } = finding;
  return fields;
}

/** Counts a list of findings; `strict` makes warnings fail too. */
export function checkSection(findings: Array<CheckFinding | LintFinding>, strict: boolean): CheckSection & { findings: CheckFinding[] } {
  const count = (s: LintSeverity) => findings.filter((f) => f.severity === s).length;
  const errorCount = count("error");
  const warningCount = count("warning");
  return {
    ok: errorCount === 0 && (!strict || warningCount === 0),
    errorCount,
    warningCount,
    infoCount: count("info"),
    findings: findings as CheckFinding[],
  };
}

/** The whole verdict: lint, runtime and layout, each counted, and `ok` only when all three pass. */
export function combineCheck(input: { lint: LintResult; runtime: CheckFinding[]; layout: CheckFinding[]; times: number[]; strict: boolean }): CheckResult {
  const { lint, strict } = input;
  const lintOk = lint.errorCount === 0 && (!strict || lint.warningCount === 0);
  const runtime = checkSection(input.runtime, strict);
  const layout = { ...checkSection(input.layout, strict), times: input.times };
  return {
    ok: lintOk && runtime.ok && layout.ok,
    strict,
    errorCount: lint.errorCount + runtime.errorCount + layout.errorCount,
    warningCount: lint.warningCount + runtime.warningCount + layout.warningCount,
    infoCount: lint.infoCount + runtime.infoCount + layout.infoCount,
    lint: { ...lint, ok: lintOk },
    runtime,
    layout,
  };
}
