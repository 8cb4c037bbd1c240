// A syntax error stops the whole script, so the timeline is never built or registered: the render shows a still.
import { parse } from "acorn";
import { describeElement } from "../../html/describe-element.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { LintFinding } from "../types.ts";

export function checkScriptSyntax(file: CompositionFile): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const script of file.scripts) {
    if (script.text === null) continue;
    try {
      parse(script.text, { ecmaVersion: "latest", sourceType: script.isModule ? "module" : "script" });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const where = script.src === null ? "an inline <script>" : script.file;
      findings.push(createFinding("script_syntax_error", script.file, `JavaScript syntax error in ${where}: ${reason} (line:column within the script). Nothing in this script runs.`, {
        selector: describeElement(script.element),
        fixHint: "Fix the syntax at that position; a common cause is unescaped quotes, e.g. a selector with double quotes inside a double-quoted string: use '[data-composition-id=\"id\"] .x'.",
      }));
    }
  }
  return findings;
}
