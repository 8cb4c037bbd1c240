// A strict render fails on lint errors before any node is involved; the errors become its log lines.
import type { Env } from "../env.ts";
import type { ProjectRef } from "../storage/keys.ts";
import { loadLintInput } from "../checks/load-lint-input.ts";
import { loadLinter } from "../checks/load-linter.ts";

export async function strictLintFailures(env: Env, ref: ProjectRef, composition: string): Promise<string[]> {
  const { lintProject } = await loadLinter();
  const result = lintProject(await loadLintInput(env.FILES, ref, composition));
  return result.findings
    .filter((f) => f.severity === "error")
    .map((f) => `lint error ${f.code} in ${f.file}${f.selector ? ` (${f.selector})` : ""}: ${f.message}`);
}
