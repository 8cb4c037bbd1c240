// Render: the options form, a live progress bar of the render the page follows (lib/use-render-follow.ts, whoever
// started it), the log, and cancel.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { formatEta } from "../lib/format.ts";
import { isRunning, percentOf, type RenderView } from "../lib/render-events.ts";
import type { FileEntry, RenderState } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";
import { StatusBadge } from "./status-badge.tsx";
import { useAction } from "../lib/use-action.ts";

const QUALITIES = ["draft", "standard", "high"] as const;
const FORMATS = ["mp4", "webm", "mov", "gif", "png-sequence"] as const;
const RESOLUTIONS = ["landscape", "portrait", "square", "landscape-4k", "portrait-4k"] as const;

interface Options {
  quality: string;
  fps: string;
  format: string;
  composition: string;
  resolution: string;
  strict: boolean;
}

function requestBody(o: Options): Record<string, unknown> {
  const body: Record<string, unknown> = { quality: o.quality, format: o.format, strict: o.strict };
  const fps = o.fps.trim();
  if (fps) body.fps = /^\d+$/.test(fps) ? Number(fps) : fps;
  if (o.composition && o.composition !== "index.html") body.composition = o.composition;
  if (o.resolution) body.resolution = o.resolution;
  return body;
}

/** `view`: the render the page follows; `onStarted`: this page's POST answer, followed like any announced render. */
export function RenderPanel({ slug, files, view, onStarted }: { slug: string; files: FileEntry[]; view: RenderView; onStarted: (state: RenderState) => void }) {
  const [options, setOptions] = useState<Options>({ quality: "standard", fps: "", format: "mp4", composition: "index.html", resolution: "", strict: false });
  const { busy, error, setError, run } = useAction();
  const logRef = useRef<HTMLPreElement>(null);
  const base = `/api/projects/${encodeURIComponent(slug)}/render`;
  const running = isRunning(view);
  const percent = percentOf(view);
  const compositions = files.map((f) => f.path).filter((p) => /\.html?$/i.test(p) && !p.startsWith("snapshots/"));

  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [view.lines.length]);

  const set = <K extends keyof Options>(key: K, value: Options[K]) => setOptions((o) => ({ ...o, [key]: value }));

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
      <form class="render-form" onSubmit={start}>
        <div class="field">
          <label for="render-quality">Quality</label>
          <select id="render-quality" value={options.quality} onChange={(e) => set("quality", e.currentTarget.value)}>
            {QUALITIES.map((q) => (
              <option key={q} value={q}>
                {q}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="render-format">Format</label>
          <select id="render-format" value={options.format} onChange={(e) => set("format", e.currentTarget.value)}>
            {FORMATS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="render-resolution">Resolution</label>
          <select id="render-resolution" value={options.resolution} onChange={(e) => set("resolution", e.currentTarget.value)}>
            <option value="">as composed</option>
            {RESOLUTIONS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="render-fps">Frames per second</label>
          <input
            id="render-fps"
            inputMode="numeric"
            placeholder="default"
            pattern="\d+(/\d+)?"
            title="An integer such as 30, or a ratio such as 30000/1001"
            value={options.fps}
            onInput={(e) => set("fps", e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="render-composition">Composition</label>
          <select id="render-composition" value={options.composition} onChange={(e) => set("composition", e.currentTarget.value)}>
            {(compositions.length ? compositions : ["index.html"]).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <label class="checkbox">
          <input type="checkbox" checked={options.strict} onChange={(e) => set("strict", e.currentTarget.checked)} /> strict (fail on lint errors)
        </label>
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
