// The lint rule table of the served docs, generated from LINT_RULES so it cannot drift from what the linter
// reports: each rule's severity, what it means, its counterpart in HyperFrames' `lint --json`, and why the two
// differ where they do.
import type { Linter } from "../checks/load-linter.ts";

const WRAP = 118;

/** `text` broken into lines of at most WRAP characters, each prefixed by `indent`. */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + 1 + word.length > WRAP) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

/** The table, from the rules of the loaded linter (worker/checks/load-linter.ts). */
export function lintRulesSection({ LINT_RULES }: Linter): string {
  const width = Math.max(...LINT_RULES.map((r) => r.code.length));
  const indent = " ".repeat(width + 13);
  const out: string[] = [];
  for (const rule of LINT_RULES) {
    const [first = "", ...rest] = wrap(rule.summary, indent);
    out.push(`  ${rule.code.padEnd(width)}  ${rule.severity.padEnd(7)}  ${first.trimStart()}`, ...rest);
    const note = rule.hyperframes.length === 0
      ? `HyperFrames: none.${rule.difference ? ` ${rule.difference}` : ""}`
      : `HyperFrames: ${rule.hyperframes.join(", ")}${rule.difference ? `; differs: ${rule.difference}` : " (same code or meaning, same severity)."}`;
    out.push(...wrap(note, indent));
  }
  return out.join("\n");
}
