// Lint and check: run them and show the findings grouped by section and severity.
import { useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { sectionsOf, sortFindings, type FindingSection } from "../lib/findings.ts";
import { ErrorNote } from "./error-note.tsx";

interface ValidationResponse {
  ok: boolean;
  exitCode: number;
  result: unknown;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function Section({ section }: { section: FindingSection }) {
  const summary = [plural(section.errorCount, "error"), plural(section.warningCount, "warning"), plural(section.infoCount, "note")].join(", ");
  const ok = section.ok ?? section.errorCount === 0;
  return (
    <div class="finding-section">
      <h4>
        <span class={`badge ${ok ? "ok" : "bad"}`}>{ok ? "pass" : "fail"}</span> {section.name}: {summary}
        {section.extra.length > 0 && <span class="muted"> · {section.extra.join(" · ")}</span>}
      </h4>
      {section.findings.length === 0 ? (
        <p class="muted">Nothing to report.</p>
      ) : (
        <ul class="findings">
          {sortFindings(section.findings).map((f, i) => (
            <li key={i} class={`finding ${f.severity}`}>
              <span class={`badge sev-${f.severity}`}>{f.severity}</span> <code>{f.code}</code> {f.message}
              <div class="finding-where">
                {f.file && <span>{f.file}</span>}
                {f.selector && <code>{f.selector}</code>}
                {f.at !== undefined && <span>at {f.at} s</span>}
              </div>
              {f.fixHint && <div class="fix-hint">Fix: {f.fixHint}</div>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ChecksPanel({ slug }: { slug: string }) {
  const [running, setRunning] = useState<"lint" | "check" | null>(null);
  const [result, setResult] = useState<{ kind: string; res: ValidationResponse } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [strict, setStrict] = useState(false);

  async function run(kind: "lint" | "check") {
    setRunning(kind);
    setError(null);
    try {
      const body = kind === "check" ? { strict } : {};
      const res = await api<ValidationResponse>(`/api/projects/${encodeURIComponent(slug)}/${kind}`, { method: "POST", json: body });
      setResult({ kind, res });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setRunning(null);
    }
  }

  const sections = result ? sectionsOf(result.res.result) : [];
  return (
    <section class="panel" aria-labelledby="checks-title">
      <h2 id="checks-title">Lint and check</h2>
      <p class="muted">Lint reads the files; check also runs the composition in a headless browser and inspects its layout (slower).</p>
      <div class="row wrap">
        <button type="button" onClick={() => run("lint")} disabled={running !== null}>
          {running === "lint" ? "Linting…" : "Lint"}
        </button>
        <button type="button" onClick={() => run("check")} disabled={running !== null}>
          {running === "check" ? "Checking…" : "Check"}
        </button>
        <label class="checkbox">
          <input type="checkbox" checked={strict} onChange={(e) => setStrict(e.currentTarget.checked)} /> strict check
        </label>
      </div>
      <ErrorNote message={error} />
      {result && (
        <div class="results" data-testid="check-results" aria-live="polite">
          <h3>
            {result.kind === "lint" ? "Lint" : "Check"} {result.res.ok ? "passed" : "found problems"}{" "}
            <span class="muted">(exit code {result.res.exitCode})</span>
          </h3>
          {sections.length === 0 && <pre class="log">{JSON.stringify(result.res.result, null, 2)}</pre>}
          {sections.map((s) => (
            <Section key={s.name} section={s} />
          ))}
        </div>
      )}
    </section>
  );
}
