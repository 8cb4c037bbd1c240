// The signed-in person's projects: a grid of cards with thumbnails, a create form, and delete.
import { useEffect, useState } from "preact/hooks";
import { api, contentFile, errorText } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { navigate } from "../lib/router.ts";
import { pickThumbnail } from "../lib/thumbnail.ts";
import type { FileEntry, ProjectSummary } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";
import { StatusBadge } from "./status-badge.tsx";
import { useAction } from "../lib/use-action.ts";

function Thumbnail({ slug, contentUrl }: { slug: string; contentUrl: string | undefined }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!contentUrl) return;
    api<{ files: FileEntry[] }>(`/api/projects/${encodeURIComponent(slug)}/files`).then(
      (res) => {
        const path = pickThumbnail(res.files);
        setSrc(path ? contentFile(contentUrl, path) : null);
      },
      () => setSrc(null),
    );
  }, [slug, contentUrl]);
  if (!src) {
    return (
      <div class="thumb placeholder" aria-hidden="true">
        <span>▶</span>
      </div>
    );
  }
  return <img class="thumb" src={src} alt="" loading="lazy" onError={() => setSrc(null)} />;
}

function CreateProject({ onCreated }: { onCreated: (slug: string) => void }) {
  const [name, setName] = useState("");
  const [duration, setDuration] = useState("6");
  const { busy, error, setError, run } = useAction();

  async function create(event: Event) {
    event.preventDefault();
    await run(async () => {
      const res = await api<{ slug: string }>("/api/projects", { method: "POST", json: { name, duration: Number(duration) } });
      setName("");
      onCreated(res.slug);
    });
  }

  return (
    <form class="create-project" onSubmit={create} aria-label="Create a project">
      <div class="field grow">
        <label for="new-project-name">New project name</label>
        <input id="new-project-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="e.g. Launch teaser" />
      </div>
      <div class="field narrow">
        <label for="new-project-duration">Seconds</label>
        <input id="new-project-duration" type="number" min="1" max="600" step="1" value={duration} onInput={(e) => setDuration(e.currentTarget.value)} />
      </div>
      <button type="submit" disabled={busy || !name.trim()}>
        {busy ? "Creating…" : "Create project"}
      </button>
      <ErrorNote message={error} />
    </form>
  );
}

export function ProjectGrid() {
  const [projects, setProjects] = useState<ProjectSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function load() {
    try {
      const res = await api<{ projects: ProjectSummary[] }>("/api/projects");
      setProjects(res.projects);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }
  useEffect(() => void load(), []);

  async function remove(slug: string) {
    if (!confirm(`Delete project ${slug} with all its files? Its renders stay in your renders list.`)) return;
    try {
      await api(`/api/projects/${encodeURIComponent(slug)}`, { method: "DELETE" });
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <section class="panel" aria-labelledby="projects-title">
      <h2 id="projects-title">Projects</h2>
      <CreateProject onCreated={(slug) => navigate(`/project?slug=${encodeURIComponent(slug)}`)} />
      <ErrorNote message={error} onRetry={load} />
      {projects === null && !error && <p class="muted">Loading projects…</p>}
      {projects?.length === 0 && <p class="muted">No projects yet. Create one above, or let an agent create one with your token.</p>}
      <ul class="grid" data-testid="projects">
        {projects?.map((p) => (
          <li key={p.name} class="card">
            <a class="card-link" href={`/project?slug=${encodeURIComponent(p.name)}`}>
              <Thumbnail slug={p.name} contentUrl={p.contentUrl} />
              <span class="card-title">{p.displayName || p.name}</span>
            </a>
            <div class="card-meta">
              <span>{p.duration} s</span>
              <span>{formatDate(p.createdAt)}</span>
              {p.render && p.render.status !== "none" && <StatusBadge status={p.render.status} />}
              {p.preview?.running && <span class="badge info">preview on</span>}
            </div>
            <div class="card-actions">
              <a class="button small ghost" href={`/play/${encodeURIComponent(p.name)}`} data-native>
                Play
              </a>
              <button type="button" class="small danger ghost" onClick={() => remove(p.name)} aria-label={`Delete ${p.name}`}>
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
