// Render: the options form, a live progress bar of the render the page follows (lib/use-render-follow.ts, whoever
// started it), the log, cancel, the render watched as it runs (live-player.tsx), and once it is done, the video
// played inline with its poster.
import { useEffect, useRef } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { formatEta } from "../lib/format.ts";
import { isRunning, percentOf, type RenderView } from "../lib/render-events.ts";
import { requestBody, type FormOptions } from "../lib/render-request.ts";
import type { FileEntry, RenderState } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";
import { FinishedPlayer } from "./finished-player.tsx";
import { LivePlayer } from "./live-player.tsx";
import { RenderOptionsFields } from "./render-options-fields.tsx";
import { StatusBadge } from "./status-badge.tsx";
import { useAction } from "../lib/use-action.ts";

/** The project's HTML files a render can start from (snapshots are not compositions). */
export function compositionsOf(files: FileEntry[]): string[] {
  return files.map((f) => f.path).filter((p) => /\.html?$/i.test(p) && !p.startsWith("snapshots/"));
}

interface Props {
  slug: string;
  files: FileEntry[];
  /** The render the page follows. */
  view: RenderView;
  /** This page's POST answer, followed like any announced render. */
  onStarted: (state: RenderState) => void;
  /** The form's options, held by the page: a batch (batch-panel.tsx) renders each row with them too. */
  options: FormOptions;
  setOptions: (update: (o: FormOptions) => FormOptions) => void;
}

export function RenderPanel({ slug, files, view, onStarted, options, setOptions }: Props) {
  const { busy, error, setError, run } = useAction();
  const logRef = useRef<HTMLPreElement>(null);
  const base = `/api/projects/${encodeURIComponent(slug)}/render`;
  const running = isRunning(view);
  const percent = percentOf(view);
  const compositions = compositionsOf(files);

  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [view.lines.length]);

  const set = <K extends keyof FormOptions>(key: K, value: FormOptions[K]) => setOptions((o) => ({ ...o, [key]: value }));

  async function start(event: Event) {
    event.preventDefault();
    await run(async () => {
      onStarted(await api<RenderState>(base, { method: "POST", json: requestBody(options) }));
    });
  }

  async function cancel() {
    setError(null);
    try {
      await api(base, { method: "DELETE" });
    } catch (err) {
      setError(errorText(err));
    }
  }

  const progress = view.progress;
  return (
    <section class="panel" aria-labelledby="render-title">
      <h2 id="render-title">Render</h2>
      {/* noValidate: the API is the one judge of the values; its message shows below as it comes. */}
      <form class="render-form" onSubmit={start} noValidate>
        <RenderOptionsFields idPrefix="render" options={options} set={set} compositions={compositions} />
        <div class="row">
          <button type="submit" disabled={busy || running}>
            {busy ? "Starting…" : running ? "Rendering…" : "Render"}
          </button>
          {running && (
            <button type="button" class="danger" onClick={cancel}>
              Cancel render
            </button>
          )}
        </div>
      </form>
      <ErrorNote message={error} />
      <ErrorNote message={view.problem} />
      {view.state.status !== "none" && (
        <div class="render-status" data-testid="render-status" data-status={view.state.status}>
          <div class="row wrap">
            <StatusBadge status={view.state.status} />
            <span role="status" aria-live="polite" data-testid="render-percent">
              {Math.floor(percent)}%
              {running && progress && (
                <>
                  {" "}
                  · frame {progress.frame} of {progress.total}
                  {progress.fps !== null && ` · ${progress.fps.toFixed(1)} fps`}
                  {progress.etaSeconds !== null && ` · about ${formatEta(progress.etaSeconds)} left`}
                </>
              )}
            </span>
            {view.state.status === "done" && view.state.downloadUrl && (
              <a class="button small" href={`${view.state.downloadUrl}?download`} download title={view.state.filename}>
                Download video
              </a>
            )}
          </div>
          <div
            class={`progress ${view.state.status}`}
            role="progressbar"
            aria-label="Render progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.floor(percent)}
            data-testid="render-progress"
          >
            <div class="progress-fill" style={{ width: `${percent}%` }} />
          </div>
          {/* While it runs: what is rendered so far; once done, the finished file in its place. */}
          {running && view.state.liveUrl && <LivePlayer liveUrl={view.state.liveUrl} />}
          {view.state.status === "done" && view.state.reusedFrom && (
            <p class="muted" data-testid="render-reused">
              Reused: a done render ({view.state.reusedFrom}) had the very same files and options, so this is a copy of its video; no node rendered it. Its log is
              below.
            </p>
          )}
          {view.state.status === "done" && view.state.downloadUrl && (
            <FinishedPlayer filename={view.state.filename} downloadUrl={view.state.downloadUrl} posterUrl={view.state.posterUrl ?? null} />
          )}
          <details open={running || view.state.status === "failed"}>
            <summary>Render log ({view.lines.length} lines)</summary>
            <pre class="log" ref={logRef} data-testid="render-log" tabIndex={0}>
              {view.lines.join("\n")}
            </pre>
          </details>
        </div>
      )}
    </section>
  );
}
