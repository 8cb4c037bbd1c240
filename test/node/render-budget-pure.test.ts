// Render budgets' pure pieces (worker/budgets/, dashboard/src/lib/usage-chart.ts) on plain values: UTC days and the
// reset, a dry run's fit, the refusal's words, the usage answer (revoked accounts still listed, the operator's
// default), and the chart's geometry.
import { describe, expect, it } from "vitest";
import { budgetExceeded, budgetExceededMessage } from "../../worker/budgets/budget-exceeded.ts";
import { budgetFit, dayOf, lastDays, nextResetAt } from "../../worker/budgets/charge.ts";
import { usageView } from "../../worker/budgets/usage-view.ts";
import { niceStep, usageChart } from "../../dashboard/src/lib/usage-chart.ts";
import { routeRefusal } from "../../worker/oauth/route-scopes.ts";

const NOW = Date.parse("2026-11-29T20:40:00.000Z");

describe("render budgets, pure", () => {
  it("counts UTC days and resets at the next UTC midnight", () => {
    expect(dayOf(NOW)).toBe("2026-11-29");
    expect(new Date(nextResetAt(NOW)).toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(new Date(nextResetAt(Date.parse("2026-11-29T00:00:00.000Z"))).toISOString()).toBe("2026-11-30T00:00:00.000Z");
    const days = lastDays(NOW, 30);
    expect(days).toHaveLength(30);
    expect([days[0], days.at(-1)]).toEqual(["2026-10-31", "2026-11-29"]);
  });

  it("fits a render only while every budget has its seconds left", () => {
    const figures = [{ kind: "user" as const, id: "u", limit: 20, used: 12 }];
    expect(budgetFit(figures, 8, NOW).fits).toBe(true);
    expect(budgetFit(figures, 8.1, NOW)).toMatchObject({ fits: false, budgets: [{ left: 8 }], resetsAt: "2026-11-30T00:00:00.000Z" });
    // An unknown estimate (0) fits only while seconds are left.
    expect(budgetFit([{ kind: "grant", id: "g", limit: 20, used: 20 }], 0, NOW).fits).toBe(false);
    expect(budgetFit([], 1e9, NOW).fits).toBe(true);
  });

  it("names the budget, its figures and the reset in the refusal, with Retry-After to midnight", () => {
    const refused = { account: { kind: "bot" as const, id: "b1", label: 'the budget of bot key "nightly"' }, limit: 600, used: 590.04, estimate: 12, resetsAt: nextResetAt(NOW) };
    expect(budgetExceededMessage(refused, NOW)).toBe(
      'render budget exceeded: the budget of bot key "nightly" is 600 s of render time per UTC day, 590 s used today, this render is estimated at 12 s; it resets at 2026-11-30T00:00:00.000Z (in 3 h 20 min)',
    );
    const error = budgetExceeded(refused, NOW);
    expect([error.status, error.code, error.headers["Retry-After"]]).toEqual([429, "budget_exceeded", String(3 * 3600 + 20 * 60)]);
    expect(error.extra.budget).toEqual({ kind: "bot", id: "b1", limit: 600, used: 590.04, estimate: 12, resetsAt: "2026-11-30T00:00:00.000Z" });
  });

  it("lists each account with 30 days, today's use against its budget, and accounts gone since", () => {
    const rows = {
      usage: [
        { account: "user:u", day: "2026-11-29", seconds: 30 },
        { account: "user:u", day: "2026-11-01", seconds: 5 },
        { account: "bot:gone", day: "2026-11-29", seconds: 4 },
      ],
      budgets: [{ account: "token:u", secondsPerDay: 10 }],
    };
    const view = usageView(rows, [{ kind: "user", id: "u", name: "you" }, { kind: "token", id: "u", name: "personal token" }], 100, NOW);
    expect(view.resetsAt).toBe("2026-11-30T00:00:00.000Z");
    const [user, token, gone] = view.accounts;
    expect(user).toMatchObject({ budget: 100, budgetSource: "operator", usedToday: 30, left: 70, gone: false });
    expect(user!.days.filter((d) => d.renderSeconds > 0)).toEqual([{ date: "2026-11-01", renderSeconds: 5 }, { date: "2026-11-29", renderSeconds: 30 }]);
    expect(token).toMatchObject({ budget: 10, budgetSource: "own", usedToday: 0, left: 10 });
    expect(gone).toMatchObject({ kind: "bot", id: "gone", name: "a revoked bot key", gone: true, budget: null, usedToday: 4 });
  });

  it("scales the chart so the tallest day and the budget line both fit, with round gridlines", () => {
    expect([niceStep(20), niceStep(7), niceStep(1300)]).toEqual([5, 2, 500]);
    const chart = usageChart([{ date: "a", renderSeconds: 0 }, { date: "b", renderSeconds: 12 }], 20, { width: 200, height: 100 });
    expect(chart.bars.map((b) => [b.x, b.width, b.height])).toEqual([[15, 70, 0], [115, 70, 60]]);
    expect(chart.budgetY).toBe(0);
    expect(chart.ticks.map((t) => t.value)).toEqual([0, 5, 10, 15, 20]);
    expect(usageChart([{ date: "a", renderSeconds: 0 }], null).budgetY).toBeNull();
  });

  it("keeps the usage and budget routes closed to OAuth-connected apps, whatever their scopes", () => {
    const all = ["projects:read", "projects:write", "render", "ideas"] as const;
    expect(routeRefusal("PUT", "/api/budgets/grant/g1", all)).toContain("not open to OAuth-connected apps");
    expect(routeRefusal("GET", "/api/usage", all)).toContain("not open to OAuth-connected apps");
  });
});
