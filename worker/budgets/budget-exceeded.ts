// The answer to a render or batch a budget refused (before anything was queued): 429 budget_exceeded naming the
// budget (which account, its limit, what is used today, the render's estimate) and when it resets (the next UTC
// midnight), with Retry-After. MCP's render tools pass the same message to the agent as their tool error.
import { ApiError } from "../http/errors.ts";
import type { BudgetRefused } from "./charge.ts";

const seconds = (n: number) => `${Math.round(n * 10) / 10} s`;

/** "3 h 20 min", "45 min", "under a minute". */
function inWords(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "under a minute";
  const hours = Math.floor(minutes / 60);
  return hours ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

export function budgetExceededMessage(refused: BudgetRefused, now = Date.now()): string {
  const { account, limit, used, estimate, resetsAt } = refused;
  const need = estimate > 0 ? `this render is estimated at ${seconds(estimate)}` : "this render's length is not known before it runs, and no seconds are left";
  return (
    `render budget exceeded: ${account.label} is ${seconds(limit)} of render time per UTC day, ${seconds(used)} used today, ${need}; ` +
    `it resets at ${new Date(resetsAt).toISOString()} (in ${inWords(resetsAt - now)})`
  );
}

export function budgetExceeded(refused: BudgetRefused, now = Date.now()): ApiError {
  const retryAfter = Math.max(1, Math.ceil((refused.resetsAt - now) / 1000));
  const { account, limit, used, estimate, resetsAt } = refused;
  return new ApiError(
    429,
    budgetExceededMessage(refused, now),
    { budget: { kind: account.kind, id: account.id, limit, used, estimate, resetsAt: new Date(resetsAt).toISOString() }, retryAfter },
    { "Retry-After": String(retryAfter) },
    "budget_exceeded",
  );
}
