// What project-wide rules see: every input file by path and every parsed composition.
import type { CompositionFile } from "./load-composition.ts";
import type { LintInputFile } from "./types.ts";

export interface ProjectContext {
  files: Map<string, LintInputFile>;
  compositions: CompositionFile[];
  entry: CompositionFile | null;
}
