// Reads timeline creation and window.__timelines registration out of a composition's scripts, without running them.
import type { CompositionFile, ScriptBlock } from "./load-composition.ts";

export interface TimelineRegistration {
  /** The key, or null when it is an expression we cannot resolve statically. */
  key: string | null;
  /** The assigned expression, e.g. `tl` or `gsap.timeline({ paused: true })`. */
  value: string;
  script: ScriptBlock;
}

export interface TimelineCreation {
  /** The variable it is assigned to, when written `const tl = gsap.timeline(...)`. */
  variable: string | null;
  /** The text between the parentheses of gsap.timeline(...). */
  args: string;
  /** True for `__timelines[...] = gsap.timeline(...)` written directly. */
  registeredDirectly: boolean;
  script: ScriptBlock;
}

const REGISTRATION = /__timelines\s*(?:\[\s*(?:"([^"]*)"|'([^']*)'|`([^`$]*)`|([^\]]+?))\s*\]|\.\s*([A-Za-z_$][\w$]*))\s*=(?![=>])\s*([^;\n]*)/g;
const TIMELINE_CALL = /(?<![\w$.])gsap\s*\.\s*timeline\s*\(/g;

/** Resolve `const id = "intro"` style constants so `__timelines[id]` still yields a key. */
function resolveConstant(code: string, name: string): string | null {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return null;
  const match = new RegExp(`(?:const|let|var)\\s+${name.replace(/\$/g, "\\$")}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(code);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

export function readTimelineRegistrations(file: CompositionFile): TimelineRegistration[] {
  const out: TimelineRegistration[] = [];
  for (const script of file.scripts) {
    if (!script.source) continue;
    const { code, bare } = script.source;
    for (const match of code.matchAll(REGISTRATION)) {
      // Skip matches whose `__timelines` sits inside a string literal (blanked in `bare`).
      if (bare.slice(match.index, match.index + 11) !== "__timelines") continue;
      const literal = match[1] ?? match[2] ?? match[3] ?? match[5];
      const expression = match[4]?.trim();
      const key = literal ?? (expression ? resolveConstant(code, expression) : null);
      out.push({ key, value: (match[6] ?? "").trim(), script });
    }
  }
  return out;
}

/** The index just past the `)` matching the `(` at `open`, measured on string-blanked code. */
function closeParen(bare: string, open: number): number {
  let depth = 0;
  for (let i = open; i < bare.length; i++) {
    if (bare[i] === "(") depth++;
    else if (bare[i] === ")" && --depth === 0) return i;
  }
  return bare.length;
}

export function readTimelineCreations(file: CompositionFile): TimelineCreation[] {
  const out: TimelineCreation[] = [];
  for (const script of file.scripts) {
    if (!script.source) continue;
    const { code, bare } = script.source;
    for (const match of bare.matchAll(TIMELINE_CALL)) {
      const open = match.index + match[0].length - 1;
      const args = code.slice(open + 1, closeParen(bare, open));
      const before = bare.slice(Math.max(0, match.index - 200), match.index);
      const assigned = /(?:^|[^\w$.])([A-Za-z_$][\w$]*)\s*=\s*$/.exec(before);
      out.push({ variable: assigned?.[1] ?? null, args, registeredDirectly: /__timelines\s*(?:\[[^\]]*\]|\.[\w$]+)\s*=\s*$/.test(before), script });
    }
  }
  return out;
}
