// Reads the shader transitions a loaded page declared (window.__studioShaderTransitions, written by the node's
// HyperShader, hyper-shader-page-script.ts) and plans them (transition-plan.ts): each one the node cannot draw is
// reported, and fails a strict render.
import type { Page } from "puppeteer-core";
import { strictFailure, type Finding } from "../../../core/protocol/finding.ts";
import type { PageShaderTransitions } from "../../../core/composition/hyper-shader-page-script.ts";
import { planShaderTransitions, type TransitionSetup } from "./transition-plan.ts";

export async function readShaderTransitions(page: Page, file: string, onFinding: (finding: Finding) => void, strict: boolean): Promise<TransitionSetup | null> {
  const declared = await page.evaluate(() => (window as unknown as { __studioShaderTransitions?: PageShaderTransitions }).__studioShaderTransitions ?? null);
  const { setup, findings } = planShaderTransitions(declared, file);
  for (const finding of findings) onFinding(finding);
  if (strict && findings[0]) throw strictFailure(findings[0]);
  return setup;
}
