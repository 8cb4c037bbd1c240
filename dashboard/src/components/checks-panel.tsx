// Lint and check: run them and show the findings grouped by section and severity.
import { useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { findingView, readVerdict, sortFindings, type FindingSection, type Verdict } from "../lib/findings.ts";
import { ErrorNote } from "./error-note.tsx";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function Section({ section }: { section: FindingSection }) {
  const summary = [plural(section.errorCount, "error"), plural(section.warningCount, "warning"), plural(section.infoCount, "note")].join(", ");
  const ok = section.ok;
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
          {sortFindings(section.findings).map(findingView).map((f, i) => (
            <li key={i} class={`finding ${f.severity}`}>
              <span class={`badge sev-${f.severity}`}>{f.severity}</span> <code>{f.code}</code> {f.message}
              <div class="finding-where">
                {f.file && <span>{f.file}</span>}
                {f.selector && <code>{f.selector}</code>}
                {f.time && <span>{f.time}</span>}
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
  // The verdict parsed with its declared schema; `raw` is shown as it came when it does not parse.
  const [result, setResult] = useState<{ kind: "lint" | "check"; verdict: Verdict | null; raw: unknown } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [strict, setStrict] = useState(false);

  async function run(kind: "lint" | "check") {
    setRunning(kind);
    setError(null);
    try {
      const body = kind === "check" ? { strict } : {};
      const raw = await api(`/api/projects/${encodeURIComponent(slug)}/${kind}`, { method: "POST", json: body });
      setResult({ kind, verdict: readVerdict(kind, raw), raw });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setRunning(null);
    }
  }

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
          {result.verdict ? (
            <>
              <h3>
                {result.kind === "lint" ? "Lint" : "Check"} {result.verdict.ok ? "passed" : "found problems"}{" "}
                <span class="muted">(exit code {result.verdict.exitCode})</span>
              </h3>
              {result.verdict.sections.map((s) => (
                <Section key={s.name} section={s} />
              ))}
            </>
          ) : (
            <pre class="log">{JSON.stringify(result.raw, null, 2)}</pre>
          )}
        </div>
      )}
    </section>
  );
}
