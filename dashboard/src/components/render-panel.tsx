// Render: the options form, a live progress bar fed by the event stream, the log, and cancel.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { formatEta } from "../lib/format.ts";
import { applyRenderEvent, EMPTY_RENDER, isRunning, percentOf, type RenderView } from "../lib/render-events.ts";
import type { FileEntry, RenderState } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";
import { StatusBadge } from "./status-badge.tsx";
import { useAction } from "../lib/use-action.ts";

const QUALITIES = ["draft", "standard", "high"] as const;
const FORMATS = ["mp4", "webm", "mov", "gif"] as const;
const RESOLUTIONS = ["landscape", "portrait", "square", "landscape-4k", "portrait-4k"] as const;
const EVENT_KINDS = ["snapshot", "start", "line", "end"] as const;

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

/**
 * Subscribes to the render events of a project for as long as the page is open, so a render an agent starts shows
 * up live. The server ends the stream after a render's `end`; EventSource reconnects by itself (and gets the
 * current state as a snapshot), and a stream that failed for good is reopened after a pause. While a render runs
 * and the stream is down, GET …/render is polled.
 */
function useRenderView(slug: string, onEnd: (state: RenderState) => void): [RenderView, (fn: (v: RenderView) => RenderView) => void, () => void] {
  const [view, setView] = useState<RenderView>(EMPTY_RENDER);
  const viewRef = useRef(view);
  viewRef.current = view;
  const [generation, setGeneration] = useState(0);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  const base = `/api/projects/${encodeURIComponent(slug)}/render`;

  useEffect(() => {
    let closed = false;
    let poll: ReturnType<typeof setTimeout> | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const apply = (kind: string, payload: unknown) => {
      const wasRunning = isRunning(viewRef.current);
      const next = applyRenderEvent(viewRef.current, kind, payload);
      viewRef.current = next;
      setView(next);
      // Only a render seen running ends here: opening the page on a finished render is no news.
      if (wasRunning && !isRunning(next)) onEndRef.current(next.state);
    };
    const pollOnce = async () => {
      if (closed) return;
      try {
        apply("snapshot", await api<RenderState>(base));
      } catch {
        // the next poll tries again
      }
      if (!closed && isRunning(viewRef.current)) poll = setTimeout(pollOnce, 1500);
    };
    const source = new EventSource(`${base}/events`);
    for (const kind of EVENT_KINDS) {
      source.addEventListener(kind, (event) => {
        let payload: unknown = null;
        try {
          payload = JSON.parse((event as MessageEvent<string>).data);
        } catch {
          payload = (event as MessageEvent<string>).data;
        }
        apply(kind, payload);
      });
    }
    source.onerror = () => {
      if (isRunning(viewRef.current)) void pollOnce();
      if (source.readyState === EventSource.CLOSED && !closed) {
        reopen = setTimeout(() => setGeneration((g) => g + 1), 3000);
      }
    };
    return () => {
      closed = true;
      source.close();
      clearTimeout(poll);
      clearTimeout(reopen);
    };
  }, [base, generation]);

  return [view, setView, () => setGeneration((g) => g + 1)];
}

export function RenderPanel({ slug, files, onFinished }: { slug: string; files: FileEntry[]; onFinished: (state: RenderState) => void }) {
  const [options, setOptions] = useState<Options>({ quality: "standard", fps: "", format: "mp4", composition: "index.html", resolution: "", strict: false });
  const { busy, error, setError, run } = useAction();
  const [view, setView, reconnect] = useRenderView(slug, onFinished);
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
      const state = await api<RenderState>(base, { method: "POST", json: requestBody(options) });
      setView((v) => applyRenderEvent(v, eventKindOfPostAnswer(state), state));
      reconnect();
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
                  {progress.fps !== undefined && ` · ${progress.fps.toFixed(1)} fps`}
                  {progress.etaSeconds !== undefined && ` · about ${formatEta(progress.etaSeconds)} left`}
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

/** A POST answer is the render's state: "start" while it runs, or the final state (e.g. a refused strict render). */
function eventKindOfPostAnswer(state: RenderState): string {
  return ["done", "failed", "cancelled"].includes(state.status) ? "snapshot" : "start";
}
