// The project's preview server: start, stop, and its link.
import { useEffect, useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import type { PreviewState } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";
import { useAction } from "../lib/use-action.ts";

export function PreviewPanel({ slug }: { slug: string }) {
  const [state, setState] = useState<PreviewState | null>(null);
  const { busy, error, setError, run } = useAction();
  const path = `/api/projects/${encodeURIComponent(slug)}/preview`;

  useEffect(() => {
    api<PreviewState>(path).then(setState, (err) => setError(errorText(err)));
  }, [path]);

  async function toggle() {
    await run(async () => {
      if (state?.running) {
        await api(path, { method: "DELETE" });
        setState({ running: false });
      } else {
        setState(await api<PreviewState>(path, { method: "POST" }));
      }
    });
  }

  return (
    <section class="panel" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview</h2>
      <p class="muted">A live preview server for this project, on its own port of the studio host.</p>
      <div class="row wrap">
        <button type="button" onClick={toggle} disabled={busy || state === null}>
          {busy ? "Working…" : state?.running ? "Stop preview" : "Start preview"}
        </button>
        <span role="status">
          {state?.running ? (
            <>
              Running on port {state.port}:{" "}
              {state.url && (
                <a href={state.url} target="_blank" rel="noopener" data-testid="preview-link">
                  {state.url}
                </a>
              )}
            </>
          ) : state ? (
            "Not running."
          ) : null}
        </span>
      </div>
      <ErrorNote message={error} />
    </section>
  );
}
