// Every finding is built here so its severity always comes from the rule table, and a studio rule always says so.
import { isStudioRule, severityOf, type LintCode } from "./lint-rules.ts";
import type { LintFinding } from "./types.ts";

/** "studio rule: " before the message, its first word lower-cased unless it is an acronym ("CSS"). */
function studioRuleMessage(message: string): string {
  const first = message.charAt(0);
  const second = message.charAt(1);
  const lowered = second !== "" && second === second.toLowerCase() ? first.toLowerCase() + message.slice(1) : message;
  return `studio rule: ${lowered}`;
}

export function createFinding(code: LintCode, file: string, message: string, extra: { selector?: string; fixHint?: string } = {}): LintFinding {
  const finding: LintFinding = { code, severity: severityOf(code), message: isStudioRule(code) ? studioRuleMessage(message) : message, file };
  if (extra.selector !== undefined) finding.selector = extra.selector;
  if (extra.fixHint !== undefined) finding.fixHint = extra.fixHint;
  return finding;
}
