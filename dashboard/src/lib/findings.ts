// Reads lint and check verdicts into sections a person can scan. Pure. The answers are parsed with the schemas the
// Worker declares them with (worker/checks/shapes.ts, built on core/protocol/finding-schema.ts), so every field read
// here is one the contract has: a renamed field fails to compile, not silently shows nothing.
import type * as z from "zod";
import { checkResult, lintResult, verdict } from "../../../worker/checks/shapes.ts";

export type LintResult = z.infer<ReturnType<typeof lintResult>>;
export type CheckResult = z.infer<ReturnType<typeof checkResult>>;
/** A lint finding, or one of check's runtime and layout findings (which may carry `time`, `times`, `box`). */
export type ShownFinding = LintResult["findings"][number] | CheckResult["runtime"]["findings"][number];

export interface FindingSection {
  name: "lint" | "runtime" | "layout";
  ok: boolean;
  errorCount: number;
  warningCount: number;
  infoCount: number;
  findings: ShownFinding[];
  extra: string[];
}

export interface Verdict {
  ok: boolean;
  exitCode: 0 | 1;
  sections: FindingSection[];
}

/** The answer of POST …/lint or …/check, parsed with its declared schema; null when it does not parse. */
export function readVerdict(kind: "lint" | "check", body: unknown): Verdict | null {
  if (kind === "lint") {
    const parsed = verdict(lintResult()).safeParse(body);
    return parsed.success ? { ok: parsed.data.ok, exitCode: parsed.data.exitCode, sections: [lintSection(parsed.data.result)] } : null;
  }
  const parsed = verdict(checkResult()).safeParse(body);
  return parsed.success ? { ok: parsed.data.ok, exitCode: parsed.data.exitCode, sections: checkSections(parsed.data.result) } : null;
}

function lintSection(lint: LintResult): FindingSection {
  const { ok, errorCount, warningCount, infoCount, findings, filesScanned } = lint;
  return { name: "lint", ok, errorCount, warningCount, infoCount, findings, extra: [`${filesScanned} file${filesScanned === 1 ? "" : "s"} scanned`] };
}

/** Check's result has lint, runtime and layout sections; layout also says at how many moments it looked. */
export function checkSections(check: CheckResult): FindingSection[] {
  const { runtime, layout } = check;
  return [
    lintSection(check.lint),
    { name: "runtime", ok: runtime.ok, errorCount: runtime.errorCount, warningCount: runtime.warningCount, infoCount: runtime.infoCount, findings: runtime.findings, extra: [] },
    {
      name: "layout",
      ok: layout.ok,
      errorCount: layout.errorCount,
      warningCount: layout.warningCount,
      infoCount: layout.infoCount,
      findings: layout.findings,
      extra: [`${layout.times.length} moment${layout.times.length === 1 ? "" : "s"} sampled`],
    },
  ];
}

/** A finding as the checks panel shows it: the fields of the contract it reads, and nothing else. */
export interface FindingView {
  severity: ShownFinding["severity"];
  code: string;
  message: string;
  /** Where the fix goes. */
  file: string;
  selector: string | null;
  /** "at 1.5 s": the composition time a check finding arose at, when it arose at one. */
  time: string | null;
  fixHint: string | null;
}

/** The contract's fields the view reads; dashboard-logic.test.ts checks each is in the finding schemas. */
export const SHOWN_FINDING_FIELDS = ["code", "severity", "message", "file", "selector", "time", "fixHint"] as const;
// A field added to the view but not to the list above fails to compile, so the test's check covers every field shown.
const everyFieldListed: [Exclude<keyof FindingView, (typeof SHOWN_FINDING_FIELDS)[number]>] extends [never] ? true : never = true;
void everyFieldListed;

export function findingView(finding: ShownFinding): FindingView {
  return {
    severity: finding.severity,
    code: finding.code,
    message: finding.message,
    file: finding.file,
    selector: finding.selector ?? null,
    time: "time" in finding && finding.time !== undefined ? `at ${finding.time} s` : null,
    fixHint: finding.fixHint ?? null,
  };
}

const ORDER: Record<ShownFinding["severity"], number> = { error: 0, warning: 1, info: 2 };

export function sortFindings(findings: ShownFinding[]): ShownFinding[] {
  return [...findings].sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
}
