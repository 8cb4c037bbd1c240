// The signed-in person's projects: a grid of cards with thumbnails, a create form, and delete.
import { useEffect, useState } from "preact/hooks";
import { api, contentFile, errorText } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { navigate } from "../lib/router.ts";
import { latestRenderOf, pickThumbnail, posterTime, type Thumbnail as Pick } from "../lib/thumbnail.ts";
import type { CreatedProject, FileEntry, ProjectFileList, ProjectList, ProjectSummary, RenderFile, RenderList } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";
import { StatusBadge } from "./status-badge.tsx";
import { useAction } from "../lib/use-action.ts";

function Thumbnail({ project, render }: { project: ProjectSummary; render: RenderFile | null }) {
  const [pick, setPick] = useState<Pick>(null);
  const [failed, setFailed] = useState(false);
  const { name: slug, contentUrl } = project;
  useEffect(() => {
    setFailed(false);
    api<ProjectFileList>(`/api/projects/${encodeURIComponent(slug)}/files`).then(
      (res) => setPick(pickThumbnail(res.files, render)),
      () => setPick(render ? pickThumbnail([], render) : null),
    );
  }, [slug, render?.filename]);
  if (!pick || failed || (pick.kind === "snapshot" && !contentUrl)) {
    return (
      <div class="thumb placeholder" aria-hidden="true">
        <span>▶</span>
      </div>
    );
  }
  if (pick.kind === "snapshot" && contentUrl) {
    return <img class="thumb" src={contentFile(contentUrl, pick.path)} alt="" loading="lazy" onError={() => setFailed(true)} data-thumb="snapshot" />;
  }
  if (pick.kind === "render" && pick.poster) {
    return <img class="thumb" src={pick.poster} alt="" loading="lazy" onError={() => setFailed(true)} data-thumb="poster" />;
  }
  if (pick.kind === "render" && pick.gif) {
    return <img class="thumb" src={`/renders/${encodeURIComponent(pick.filename)}`} alt="" loading="lazy" onError={() => setFailed(true)} data-thumb="render" />;
  }
  // The poster frame: the rendered video itself, paused at mid-composition (a media fragment), never played.
  return (
    <video
      class="thumb"
      src={`/renders/${encodeURIComponent(pick.kind === "render" ? pick.filename : "")}#t=${posterTime(project.duration)}`}
      muted
      playsInline
      preload="metadata"
      aria-hidden="true"
      tabIndex={-1}
      onError={() => setFailed(true)}
      data-thumb="render"
    />
  );
}

function CreateProject({ onCreated }: { onCreated: (slug: string) => void }) {
  const [name, setName] = useState("");
  const [duration, setDuration] = useState("6");
  const { busy, error, setError, run } = useAction();

  async function create(event: Event) {
    event.preventDefault();
    await run(async () => {
      const res = await api<CreatedProject>("/api/projects", { method: "POST", json: { name, duration: Number(duration) } });
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
  const [renders, setRenders] = useState<RenderFile[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [rendersProblem, setRendersProblem] = useState<string | null>(null);

  async function load() {
    try {
      const [res, list] = await Promise.all([
        api<ProjectList>("/api/projects"),
        // The renders only give the cards their thumbnails: without them the projects still show, with a note.
        api<RenderList>("/api/renders").then(
          (answer) => ({ renders: answer.renders, problem: null }),
          (err: unknown) => ({ renders: [] as RenderFile[], problem: errorText(err) }),
        ),
      ]);
      setRenders(list.renders);
      setRendersProblem(list.problem);
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
      {rendersProblem && projects && (
        <p class="muted" role="status" data-testid="renders-problem">
          Rendered thumbnails are not shown: {rendersProblem}
        </p>
      )}
      {projects?.length === 0 && <p class="muted">No projects yet. Create one above, or let an agent create one with your token.</p>}
      <ul class="grid" data-testid="projects">
        {projects?.map((p) => (
          <li key={p.name} class="card">
            <a class="card-link" href={`/project?slug=${encodeURIComponent(p.name)}`}>
              <Thumbnail project={p} render={latestRenderOf(renders, p.name)} />
              <span class="card-title">{p.displayName || p.name}</span>
            </a>
            <div class="card-meta">
              {p.duration !== null && <span>{p.duration} s</span>}
              <span>{formatDate(p.createdAt)}</span>
              {p.render && <StatusBadge status={p.render.status} />}
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
