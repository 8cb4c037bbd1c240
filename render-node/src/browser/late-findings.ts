// Findings a composition raises after it loaded — a timer's callback that throws, a timeline callback that throws
// while a frame is sought — are collected by the page runtime like the ones at load. Read after capture (as data,
// through __studio.findings()), they are reported (and fail a strict render), so a render whose script broke
// halfway never ends quietly `done`.
import type { Page } from "puppeteer-core";
import type { StudioWindow } from "../../../page-runtime/api.ts";
import { strictFailure, type Finding } from "../../../core/protocol/finding.ts";
import { readPageFindings as readPageFindingsAnswer } from "../../../core/protocol/read-composition-info.ts";
import { pageReportFinding } from "../../../core/protocol/read-page-report.ts";

/**
 * The runtime's findings now, in the order they arose, parsed (core/protocol/page-report.ts): one the page forged
 * that does not parse is left out, and a page-report-invalid finding naming it takes its place.
 */
export async function readPageFindings(page: Page, file: string): Promise<Finding[]> {
  const raw: unknown = await page.evaluate(() => (window as unknown as StudioWindow).__studio.findings());
  const read = readPageFindingsAnswer(raw);
  return [...read.value, ...read.problems.map((problem) => pageReportFinding(file, problem))];
}

/**
 * Reports what the pages raised after loading (each once: `known` holds the messages reported already, and
 * grows). Under strict, the first new one fails the render.
 */
export async function reportLateFindings(pages: Page[], file: string, known: Set<string>, onFinding: (finding: Finding) => void, strict: boolean | undefined): Promise<void> {
  const fresh: Finding[] = [];
  for (const page of pages) {
    for (const finding of await readPageFindings(page, file)) {
      if (known.has(finding.message)) continue;
      known.add(finding.message);
      fresh.push(finding);
      onFinding(finding);
    }
  }
  if (strict && fresh[0]) throw strictFailure(fresh[0]);
}
