// Reads lint and check results (shapes owned by the linter) into sections a person can scan. Pure.
import type { Finding } from "./types.ts";

export interface FindingSection {
  name: string;
  ok: boolean | null;
  errorCount: number;
  warningCount: number;
  infoCount: number;
  findings: Finding[];
  extra: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function findingsOf(value: unknown): Finding[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((f) => ({
    code: String(f.code ?? f.rule ?? "finding"),
    severity: String(f.severity ?? f.level ?? "info"),
    message: String(f.message ?? ""),
    file: typeof f.file === "string" ? f.file : undefined,
    selector: typeof f.selector === "string" ? f.selector : undefined,
    fixHint: typeof f.fixHint === "string" ? f.fixHint : undefined,
    at: typeof f.at === "number" ? f.at : typeof f.time === "number" ? f.time : undefined,
  }));
}

function count(findings: Finding[], severity: string, given: unknown): number {
  return typeof given === "number" ? given : findings.filter((f) => f.severity === severity).length;
}

function sectionOf(name: string, value: unknown): FindingSection | null {
  if (!isRecord(value)) return null;
  const findings = findingsOf(value.findings ?? value.issues);
  const extra: string[] = [];
  if (typeof value.filesScanned === "number") extra.push(`${value.filesScanned} file${value.filesScanned === 1 ? "" : "s"} scanned`);
  if (Array.isArray(value.samples)) extra.push(`${value.samples.length} moments sampled`);
  else if (typeof value.samples === "number") extra.push(`${value.samples} moments sampled`);
  if (typeof value.skipped === "string") extra.push(`skipped: ${value.skipped}`);
  return {
    name,
    ok: typeof value.ok === "boolean" ? value.ok : null,
    errorCount: count(findings, "error", value.errorCount),
    warningCount: count(findings, "warning", value.warningCount),
    infoCount: count(findings, "info", value.infoCount),
    findings,
    extra,
  };
}

const CHECK_SECTIONS = ["lint", "runtime", "layout"] as const;

/** Lint's result is one section; check's result has lint, runtime and layout sections. */
export function sectionsOf(result: unknown): FindingSection[] {
  if (!isRecord(result)) return [];
  const nested = CHECK_SECTIONS.filter((k) => isRecord(result[k]));
  if (nested.length) return nested.map((k) => sectionOf(k, result[k])).filter((s): s is FindingSection => s !== null);
  const single = sectionOf("lint", result);
  return single ? [single] : [];
}

const ORDER: Record<string, number> = { error: 0, warning: 1, info: 2 };

export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort((a, b) => (ORDER[a.severity] ?? 3) - (ORDER[b.severity] ?? 3));
}
