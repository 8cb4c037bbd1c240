// What the render log and check report as findings from inside the page: script errors (at load, in later
// callbacks, in timeline callbacks while seeking) and sub-compositions that did not mount. Kept as data; the node
// reads them with __studio.findings() and makes text only when it logs them.
import { makeFinding, type Finding, type FindingCode } from "../../../core/protocol/finding.ts";

const found: Finding[] = [];

/** Records a finding once per message (every browser of a render loads the page; a seek may fail every frame). */
export function report(code: FindingCode, file: string, message: string, extra: { selector?: string | undefined; time?: number | undefined; asset?: string | undefined } = {}): void {
  if (found.some((f) => f.message === message)) return;
  found.push(makeFinding(code, file, message, extra));
}

export function findingsSoFar(): Finding[] {
  return found.map((f) => ({ ...f }));
}
