// Public shapes of the linter. The result mirrors HyperFrames' `lint --json`, which agents already know.
import type { LintCode } from "./lint-rules.ts";

export type LintSeverity = "error" | "warning" | "info";

export interface LintInputFile {
  /** Project-relative path such as `index.html` or `assets/music.mp3`. */
  path: string;
  /** Size in bytes. */
  size: number;
  /** Text content; given for .html, .css, .js and .json files. */
  text?: string;
}

export interface LintInput {
  files: LintInputFile[];
  /** The composition to lint; defaults to `index.html`. */
  entry?: string;
}

export interface LintOptions {
  /** Include info findings (summaries and notes). */
  verbose?: boolean;
}

export interface LintFinding {
  code: LintCode;
  severity: LintSeverity;
  message: string;
  file: string;
  selector?: string;
  fixHint?: string;
}

export interface LintResult {
  ok: boolean;
  errorCount: number;
  warningCount: number;
  infoCount: number;
  findings: LintFinding[];
  filesScanned: number;
}
