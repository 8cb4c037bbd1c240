// The studio's own linter (core/lint, the code behind POST …/lint) run in the browser on the text being edited,
// with the project's other files as they are saved, so findings appear as one types.
import { lintProject, type LintFinding, type LintInputFile } from "../../../core/lint/index.ts";

/** Findings about `path` when its text is `text` and the rest of the project is `others`. */
export function lintEdited(path: string, text: string, others: LintInputFile[]): LintFinding[] {
  const files = [...others.filter((f) => f.path !== path), { path, size: new TextEncoder().encode(text).byteLength, text }];
  const entry = files.some((f) => f.path === "index.html") ? "index.html" : path;
  return lintProject({ files, entry }).findings.filter((f) => f.file === path && f.severity !== "info");
}
