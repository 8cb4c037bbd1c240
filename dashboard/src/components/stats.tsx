// The public counters of GET /api/stats.
import { useEffect, useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { formatCount } from "../lib/format.ts";
import type { Stats } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";

const LABELS: [keyof Stats, string][] = [
  ["animationsCreated", "animations created"],
  ["animationsNow", "projects now"],
  ["rendersCompleted", "renders completed"],
  ["users", "people and agents"],
  ["pageViews", "page views"],
  ["uniqueVisitors", "visitors"],
  ["returningVisitors", "returning visitors"],
];

export function PublicStats() {
  const [stats, setStats] = useState<Stats | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<Stats>("/api/stats").then(setStats, (err) => setError(errorText(err)));
  }, []);
  return (
    <section class="panel" aria-labelledby="stats-title">
      <h2 id="stats-title">Studio in numbers</h2>
      <ErrorNote message={error} />
      <dl class="stats" data-testid="stats">
        {LABELS.map(([key, label]) => (
          <div key={key} class="stat">
            <dt>{label}</dt>
            <dd>{stats ? formatCount(stats[key]) : "…"}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
