// Every finding is built here so its severity always comes from the rule table.
import { severityOf, type LintCode } from "./lint-rules.ts";
import type { LintFinding } from "./types.ts";

export function createFinding(code: LintCode, file: string, message: string, extra: { selector?: string; fixHint?: string } = {}): LintFinding {
  const finding: LintFinding = { code, severity: severityOf(code), message, file };
  if (extra.selector !== undefined) finding.selector = extra.selector;
  if (extra.fixHint !== undefined) finding.fixHint = extra.fixHint;
  return finding;
}
