// Public surface of the composition linter.
export { lintProject } from "./lint-project.ts";
export { LINT_RULES, type LintCode, type LintRuleInfo } from "./lint-rules.ts";
export { GSAP_CDN_URL, GSAP_VERSION } from "../composition/match-gsap-url.ts";
export type { LintFinding, LintInput, LintInputFile, LintOptions, LintResult, LintSeverity } from "./types.ts";
