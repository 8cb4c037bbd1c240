// Rendered videos (GET /api/renders), optionally for one project: each with its poster, play inline, download, delete.
import { useEffect, useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { formatBytes, formatDate } from "../lib/format.ts";
import type { RenderFile, RenderList } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";
import { ShareButton } from "./share-link.tsx";

function rendersPath(filename: string): string {
  return `/renders/${encodeURIComponent(filename)}`;
}

export function RendersList({ project, version }: { project?: string; version: number }) {
  const [renders, setRenders] = useState<RenderFile[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);

  async function load() {
    try {
      const res = await api<RenderList>("/api/renders");
      setRenders(project ? res.renders.filter((r) => r.project === project) : res.renders);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }
  useEffect(() => void load(), [project, version]);

  async function remove(filename: string) {
    if (!confirm(`Delete ${filename}?`)) return;
    try {
      await api(rendersPath(filename), { method: "DELETE" });
      if (playing === filename) setPlaying(null);
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <section class="panel" aria-labelledby="renders-title">
      <h2 id="renders-title">Renders</h2>
      <ErrorNote message={error} onRetry={load} />
      {renders === null && !error && <p class="muted">Loading renders…</p>}
      {renders?.length === 0 && <p class="muted">No renders yet.</p>}
      <ul class="renders" data-testid="renders">
        {renders?.map((r) => (
          <li key={r.filename} class="render-item">
            <div class="render-line">
              {r.posterUrl && <img class="render-poster" src={r.posterUrl} alt="" loading="lazy" data-testid="render-poster" />}
              <span class="render-name">{r.filename}</span>
              {r.reusedFrom && (
                <span class="muted" data-testid="render-reused" title={`a copy of render ${r.reusedFrom}, which had the very same inputs`}>
                  reused
                </span>
              )}
              <span class="muted">
                {formatBytes(r.size)} · {formatDate(r.mtime)}
              </span>
              <span class="row">
                {/* A png-sequence is a .zip of frames: downloaded, not played. */}
                {!r.filename.endsWith(".zip") && (
                  <button
                    type="button"
                    class="small"
                    aria-expanded={playing === r.filename}
                    onClick={() => setPlaying(playing === r.filename ? null : r.filename)}
                  >
                    {playing === r.filename ? "Close player" : "Play"}
                  </button>
                )}
                <a class="button small ghost" href={`${rendersPath(r.filename)}?download`} download={r.filename}>
                  Download
                </a>
                <button type="button" class="small ghost danger" onClick={() => remove(r.filename)} aria-label={`Delete ${r.filename}`}>
                  Delete
                </button>
                <ShareButton slug={r.project} render={r.filename} label={`Share ${r.filename}`} />
              </span>
            </div>
            {playing === r.filename &&
              (r.filename.endsWith(".gif") ? (
                <img class="player" src={rendersPath(r.filename)} alt={`Render ${r.filename}`} />
              ) : (
                <video class="player" src={rendersPath(r.filename)} poster={r.posterUrl ?? undefined} controls autoPlay muted playsInline preload="metadata" data-testid="player" />
              ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
