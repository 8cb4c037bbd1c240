// Problems a composition raises after it loaded — a timer's callback that throws, a timeline callback that throws
// while a frame is sought — are collected by the page runtime like the ones at load. Read after capture, they
// become findings (and fail a strict render), so a render whose script broke halfway never ends quietly `done`.
import type { Page } from "puppeteer-core";
import type { StudioWindow } from "../../page-runtime/api.ts";

/** The runtime's problems now, in the order they arose. */
export function readProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as StudioWindow).__studio.problems());
}

/**
 * Reports what the pages raised after loading as `finding:` lines (each once: `known` holds what was reported
 * already, and grows). Under strict, the first new one fails the render.
 */
export async function reportLateProblems(pages: Page[], known: Set<string>, onLine: (line: string) => void, strict: boolean | undefined): Promise<void> {
  const fresh: string[] = [];
  for (const page of pages) {
    for (const problem of await readProblems(page)) {
      if (known.has(problem)) continue;
      known.add(problem);
      fresh.push(problem);
      onLine(`finding: ${problem}`);
    }
  }
  if (strict && fresh.length) throw new Error(`${fresh[0]}; strict renders fail on it`);
}
