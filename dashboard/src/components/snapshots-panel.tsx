// Snapshots: take N frames (or frames at given seconds) and show them with the contact sheet.
import { useState } from "preact/hooks";
import { api, contentFile } from "../lib/api.ts";
import type { FileEntry, SnapshotResult } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";
import { useAction } from "../lib/use-action.ts";

function parseTimes(text: string): number[] | undefined {
  const times = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isFinite(n) && n >= 0);
  return times.length ? times : undefined;
}

export function SnapshotsPanel({ slug, contentUrl, files, onChange }: { slug: string; contentUrl: string; files: FileEntry[]; onChange: () => Promise<void> }) {
  const [frames, setFrames] = useState("5");
  const [at, setAt] = useState("");
  const { busy, error, run } = useAction();
  const [log, setLog] = useState<string | null>(null);
  const [stamp, setStamp] = useState(0);

  async function take(event: Event) {
    event.preventDefault();
    await run(async () => {
      const times = parseTimes(at);
      const body = times ? { at: times } : { frames: Number(frames) || 5 };
      const res = await api<SnapshotResult>(`/api/projects/${encodeURIComponent(slug)}/snapshot`, {
        method: "POST",
        json: body,
      });
      // A failed run is an error answer (ApiError, shown by run()); a 200 is always ok, with its log.
      setLog(res.log.join("\n"));
      setStamp(Date.now());
      await onChange();
    });
  }

  const pngs = files
    .map((f) => f.path)
    .filter((p) => p.startsWith("snapshots/") && p.toLowerCase().endsWith(".png"))
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const sheet = pngs.find((p) => /contact|sheet/i.test(p));
  const shots = pngs.filter((p) => p !== sheet);
  const src = (p: string) => `${contentFile(contentUrl, p)}${stamp ? `?v=${stamp}` : ""}`;

  return (
    <section class="panel" aria-labelledby="snapshots-title">
      <h2 id="snapshots-title">Snapshots</h2>
      <form class="row wrap" onSubmit={take}>
        <div class="field narrow">
          <label for="snap-frames">Frames</label>
          <input id="snap-frames" type="number" min="1" max="60" value={frames} onInput={(e) => setFrames(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="snap-at">or at seconds</label>
          <input id="snap-at" value={at} placeholder="e.g. 0, 1.5, 3" onInput={(e) => setAt(e.currentTarget.value)} />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Taking snapshots…" : "Take snapshots"}
        </button>
      </form>
      <ErrorNote message={error} />
      {pngs.length === 0 && <p class="muted">No snapshots yet.</p>}
      {shots.length > 0 && (
        <ul class="shots" data-testid="snapshots">
          {shots.map((p) => (
            <li key={p}>
              <a href={contentFile(contentUrl, p)} target="_blank" rel="noopener">
                <img src={src(p)} alt={`Snapshot ${p.slice("snapshots/".length)}`} loading="lazy" />
              </a>
            </li>
          ))}
        </ul>
      )}
      {sheet && (
        <figure class="contact-sheet">
          <img src={src(sheet)} alt="Contact sheet of the snapshots" loading="lazy" />
          <figcaption>Contact sheet</figcaption>
        </figure>
      )}
      {log && (
        <details>
          <summary>Snapshot log</summary>
          <pre class="log">{log}</pre>
        </details>
      )}
    </section>
  );
}
