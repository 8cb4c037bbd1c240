// Reads the shader transitions a loaded page declared (window.__studioShaderTransitions, written by the node's
// HyperShader, hyper-shader-page-script.ts) and plans them (transition-plan.ts): each one the node cannot draw is
// reported, and fails a strict render.
import type { Page } from "puppeteer-core";
import { strictFailure, type Finding } from "../../../../core/protocol/finding.ts";
import { readShaderDeclaration } from "../../../../core/protocol/read-page-answers.ts";
import { pageReportFinding } from "../../../../core/protocol/read-page-report.ts";
import { planShaderTransitions, type TransitionSetup } from "./transition-plan.ts";

export async function readShaderTransitions(page: Page, file: string, onFinding: (finding: Finding) => void, strict: boolean): Promise<TransitionSetup | null> {
  const raw: unknown = await page.evaluate((): unknown => (window as unknown as { __studioShaderTransitions?: unknown }).__studioShaderTransitions ?? null);
  // A plain page global any script can write: parsed (core/protocol/page-report.ts) before it is planned.
  const declared = readShaderDeclaration(raw);
  const planned = planShaderTransitions(declared.value, file);
  const { setup } = planned;
  const findings = [...declared.problems.map((problem) => pageReportFinding(file, problem)), ...planned.findings];
  for (const finding of findings) onFinding(finding);
  if (strict && findings[0]) throw strictFailure(findings[0]);
  return setup;
}
