// Render usage: the render-seconds charged to you per UTC day over the last 30 days as a bar chart (SVG, with the
// daily budget as a dashed line), and every budget that applies to you and your credentials (your own, your personal
// token's, each bot key's and connected app's), each editable: a number sets it, an empty field removes it. A render
// past a budget is refused by the API with a message naming it; this panel shows where each stands today.
import { useEffect, useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { useAction } from "../lib/use-action.ts";
import { usageChart } from "../lib/usage-chart.ts";
import type { Usage, UsageAccount } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";

/** What a row's name does not say by itself: which kind of credential it is. */
const KIND_NOTE: Record<UsageAccount["kind"], string> = { user: "", token: "", bot: "bot key", grant: "connected app" };

const seconds = (n: number) => `${Math.round(n * 10) / 10} s`;

function UsageChartView({ account }: { account: UsageAccount }) {
  const chart = usageChart(account.days, account.budget);
  const total = account.days.reduce((sum, d) => sum + d.renderSeconds, 0);
  const label = `Render-seconds per day, last ${account.days.length} days: ${seconds(total)} in all${account.budget === null ? "" : `, budget ${seconds(account.budget)} a day`}`;
  return (
    <figure class="usage-chart">
      <svg viewBox={`-40 -8 ${chart.width + 48} ${chart.height + 28}`} role="img" aria-label={label} data-testid="usage-chart">
        {chart.ticks.map((tick) => (
          <g key={tick.value} class="usage-tick">
            <line x1={0} x2={chart.width} y1={tick.y} y2={tick.y} />
            <text x={-6} y={tick.y + 4} text-anchor="end">
              {tick.value}
            </text>
          </g>
        ))}
        {chart.bars.map((bar) => (
          <rect key={bar.date} class="usage-bar" x={bar.x} y={bar.y} width={bar.width} height={bar.height} data-date={bar.date} data-seconds={bar.renderSeconds}>
            <title>{`${bar.date}: ${seconds(bar.renderSeconds)}`}</title>
          </rect>
        ))}
        {chart.budgetY !== null && <line class="usage-budget" x1={0} x2={chart.width} y1={chart.budgetY} y2={chart.budgetY} data-testid="usage-budget-line" />}
        <text x={0} y={chart.height + 18} class="usage-axis">
          {account.days[0]?.date}
        </text>
        <text x={chart.width} y={chart.height + 18} text-anchor="end" class="usage-axis">
          {account.days.at(-1)?.date}
        </text>
      </svg>
      <figcaption class="muted small-text">{label}</figcaption>
    </figure>
  );
}

function BudgetRow({ account, onSaved }: { account: UsageAccount; onSaved: () => void }) {
  const [value, setValue] = useState(account.budgetSource === "own" ? String(account.budget) : "");
  const { busy, error, run } = useAction();
  const save = () =>
    run(async () => {
      const renderSecondsPerDay = value.trim() === "" ? null : Number(value);
      await api(`/api/budgets/${account.kind}/${encodeURIComponent(account.id)}`, { method: "PUT", json: { renderSecondsPerDay } });
      onSaved();
    });
  const placeholder = account.budgetSource === "operator" ? `studio default ${account.budget}` : "no budget";
  return (
    <tr data-testid="budget-row">
      <th scope="row">
        {account.name} {KIND_NOTE[account.kind] && <span class="muted small-text">{KIND_NOTE[account.kind]}</span>}
      </th>
      <td data-label="Used today">{seconds(account.usedToday)}</td>
      <td data-label="Daily budget">{account.budget === null ? "none" : `${seconds(account.budget)}${account.budgetSource === "operator" ? " (studio default)" : ""}`}</td>
      <td data-label="Set">
        {account.gone ? (
          <span class="muted small-text">revoked</span>
        ) : (
          <form
            class="budget-form"
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <input
              type="number"
              min="0.1"
              step="0.1"
              inputMode="decimal"
              aria-label={`Daily budget of ${account.name} (${account.kind}), render-seconds`}
              placeholder={placeholder}
              value={value}
              onInput={(event) => setValue((event.target as HTMLInputElement).value)}
            />
            <button type="submit" class="small" disabled={busy}>
              Save
            </button>
            <ErrorNote message={error} />
          </form>
        )}
      </td>
    </tr>
  );
}

export function UsagePanel({ version = 0 }: { version?: number }) {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    api<Usage>("/api/usage").then(setUsage, (err) => setError(errorText(err)));
  }, [version, reloads]);

  const you = usage?.accounts.find((a) => a.kind === "user");
  return (
    <section class="panel" aria-labelledby="usage-title" data-testid="usage-panel">
      <h2 id="usage-title">Render usage</h2>
      <p class="muted">
        Render-seconds (node time, as quoted) charged per UTC day; a render in progress counts at its estimate until it ends. A render that
        would pass a budget is refused; budgets reset at midnight UTC{usage ? ` (next: ${usage.resetsAt.slice(0, 16).replace("T", " ")} UTC)` : ""}.
      </p>
      <ErrorNote message={error} />
      {!usage && !error && <p class="muted">Loading…</p>}
      {you && <UsageChartView account={you} />}
      {usage && (
        <table class="budgets">
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">Used today</th>
              <th scope="col">Daily budget</th>
              <th scope="col">Set (render-seconds)</th>
            </tr>
          </thead>
          <tbody>
            {usage.accounts.map((account) => (
              <BudgetRow key={`${account.kind}:${account.id}:${account.budget}`} account={account} onSaved={() => setReloads((n) => n + 1)} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
