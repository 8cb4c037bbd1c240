// Render-time variables checked against what the entry composition declares, before any browser starts: a strict
// render fails naming each key, otherwise each issue is a warning finding in the log (the Worker already refused
// a strict render it could judge; this covers renders started elsewhere, such as the CLI's local render).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readVariableDeclarations } from "../../../core/composition/read-variable-declarations.ts";
import { makeFinding, type Finding } from "../../../core/protocol/finding.ts";
import { describeVariableIssues, validateVariables } from "../../../core/render/render-variables.ts";

export async function checkRenderVariables(
  projectDir: string,
  options: { composition: string; variables: Record<string, unknown> | undefined; strictVariables: boolean },
): Promise<Finding[]> {
  if (!options.variables || Object.keys(options.variables).length === 0) return [];
  const html = await readFile(join(projectDir, options.composition), "utf8");
  const issues = validateVariables(options.variables, readVariableDeclarations(html), options.composition);
  if (issues.length > 0 && options.strictVariables) throw new Error(describeVariableIssues(issues));
  return issues.map((issue) =>
    makeFinding("variable-mismatch", options.composition, issue.message, {
      fixHint: issue.kind === "undeclared"
        ? `Declare it on the root: data-composition-variables='[{"id":"${issue.id}","type":"string","label":"${issue.id}","default":"..."}]', or drop the key`
        : "Pass a value of the declared type, or change the declaration",
    }),
  );
}
