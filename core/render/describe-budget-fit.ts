// A dry run's budget answer in words (issue 34, point 4), for the MCP render tool's text and the CLI's --dry-run.
import type { BudgetFit } from "../protocol/render-quote.ts";

export function describeFit(fit: BudgetFit): string {
  if (fit.budgets.length === 0) return "no render budget applies";
  const tightest = fit.budgets.reduce((a, b) => (b.left < a.left ? b : a));
  const figures = `${tightest.left} of ${tightest.limit} render-seconds left today on the ${tightest.kind} budget`;
  return fit.fits ? `fits your budgets (${figures})` : `would be refused now: past a budget (${figures}; it resets at ${fit.resetsAt})`;
}
