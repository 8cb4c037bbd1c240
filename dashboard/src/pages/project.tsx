// "/project?slug=…": one project's files, checks, snapshots, preview, render, batch and renders.
import { useCallback, useEffect, useState } from "preact/hooks";
import { BatchPanel } from "../components/batch-panel.tsx";
import { ChecksPanel } from "../components/checks-panel.tsx";
import { ErrorNote } from "../components/error-note.tsx";
import { FilesPanel } from "../components/files-panel.tsx";
import { PreviewPanel } from "../components/preview-panel.tsx";
import { RenderPanel } from "../components/render-panel.tsx";
import { RendersList } from "../components/renders-list.tsx";
import { SignIn } from "../components/sign-in.tsx";
import { ShareButton } from "../components/share-link.tsx";
import { SnapshotsPanel } from "../components/snapshots-panel.tsx";
import { Toasts, type ToastItem } from "../components/toast.tsx";
import { useProjectEvents } from "../lib/use-project-events.ts";
import { useRenderFollow } from "../lib/use-render-follow.ts";
import { api, errorText } from "../lib/api.ts";
import { laterBatch, type BatchState } from "../lib/batch-view.ts";
import { formatDate } from "../lib/format.ts";
import { DEFAULT_OPTIONS, type FormOptions } from "../lib/render-request.ts";
import type { ProjectDetail, RenderState } from "../lib/types.ts";
import { useSession } from "../session.ts";

const TABS = [
  { id: "files", label: "Files" },
  { id: "render", label: "Render" },
  { id: "snapshots", label: "Snapshots" },
  { id: "checks", label: "Checks & preview" },
] as const;
type TabId = (typeof TABS)[number]["id"];

function Project({ slug }: { slug: string }) {
  const [detail, setDetail] = useState<ProjectDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [rendersVersion, setRendersVersion] = useState(0);
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const [tab, setTab] = useState<TabId>("files");
  // The render form's options: one render uses them, and so does each row of a batch.
  const [options, setOptions] = useState<FormOptions>(DEFAULT_OPTIONS);
  const [batch, setBatch] = useState<BatchState | null>(null);
  const showBatch = useCallback((state: BatchState) => setBatch((current) => laterBatch(current, state)), []);

  const load = useCallback(async () => {
    try {
      setDetail(await api<ProjectDetail>(`/api/projects/${encodeURIComponent(slug)}`));
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [slug]);
  useEffect(() => {
    setDetail(null);
    void load();
  }, [load]);
  // Files an agent (or another tab) writes or deletes show up at once: the event only says "reload the list".
  // Renders started anywhere are followed like the page's own, and end in a toast with the download.
  const render = useRenderFollow(slug, renderEnded);
  useProjectEvents(slug, { files: () => void load(), render: render.announce, batch: showBatch, problem: render.report });

  function renderEnded(state: RenderState) {
    setRendersVersion((v) => v + 1);
    const id = Date.now();
    const body =
      state.status === "done" ? (
        <>
          Render finished: <code>{state.filename}</code>{" "}
          {state.downloadUrl && (
            <a class="button small" href={`${state.downloadUrl}?download`} download={state.filename} data-testid="toast-download">
              Download
            </a>
          )}
        </>
      ) : (
        <>
          Render {state.status}
          {state.error ? `: ${state.error}` : ""}
        </>
      );
    setToasts((list) => [...list, { id, kind: state.status === "done" ? "success" : "error", body }]);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), 30_000);
  }

  // contentUrl (snapshots, file links) lasts an hour: fetch a fresh one a few minutes before it runs out.
  useEffect(() => {
    if (!detail) return;
    const timer = setTimeout(() => void load(), Math.max(60_000, Date.parse(detail.contentExpiresAt) - Date.now() - 5 * 60_000));
    return () => clearTimeout(timer);
  }, [detail, load]);

  if (!detail) {
    return (
      <>
        <p>
          <a href="/">← All projects</a>
        </p>
        {error ? <ErrorNote message={error} onRetry={load} /> : <p class="muted">Loading {slug}…</p>}
      </>
    );
  }
  const { project, files, contentUrl } = detail;
  return (
    <>
      <p>
        <a href="/">← All projects</a>
      </p>
      <div class="page-head">
        <h1 class="page-title">{project.displayName || project.name}</h1>
        <span class="row">
          {/* /play/<slug> answers with a fresh link to the player on the content origin. */}
          <a class="button" href={`/play/${encodeURIComponent(project.name)}`} data-native target="_blank" rel="noopener">
            Play in the browser
          </a>
          <ShareButton slug={project.name} label="Share a link to this project" />
        </span>
      </div>
      <p class="muted">
        <code>{project.name}</code> · composition <code>{project.compositionId}</code> · {project.duration} s · created {formatDate(project.createdAt)}
      </p>
      <ErrorNote message={error} />
      <div class="tabs" role="tablist" aria-label="Project sections">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            class={`tab${tab === t.id ? " active" : ""}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {/* Every tab stays mounted (hidden when not chosen), so a render keeps streaming and toasts wherever one is. */}
      <div role="tabpanel" id="panel-files" aria-labelledby="tab-files" hidden={tab !== "files"}>
        <FilesPanel slug={slug} contentUrl={contentUrl} files={files} onChange={load} />
      </div>
      <div role="tabpanel" id="panel-render" aria-labelledby="tab-render" hidden={tab !== "render"} class="project-layout">
        <div class="col">
          <RenderPanel slug={slug} files={files} view={render.view} onStarted={render.announce} options={options} setOptions={setOptions} />
          <BatchPanel slug={slug} files={files} options={options} batch={batch} onBatch={showBatch} />
        </div>
        <div class="col">
          <RendersList project={slug} version={rendersVersion} />
        </div>
      </div>
      <div role="tabpanel" id="panel-snapshots" aria-labelledby="tab-snapshots" hidden={tab !== "snapshots"}>
        <SnapshotsPanel slug={slug} contentUrl={contentUrl} files={files} onChange={load} />
      </div>
      <div role="tabpanel" id="panel-checks" aria-labelledby="tab-checks" hidden={tab !== "checks"} class="project-layout">
        <div class="col">
          <ChecksPanel slug={slug} />
        </div>
        <div class="col">
          <PreviewPanel slug={slug} />
        </div>
      </div>
      <Toasts items={toasts} onDismiss={(id) => setToasts((list) => list.filter((t) => t.id !== id))} />
    </>
  );
}

export function ProjectPage({ slug }: { slug: string }) {
  const { health } = useSession();
  if (!health.user) {
    return (
      <>
        <p>Sign in to open this project.</p>
        <SignIn />
      </>
    );
  }
  if (!slug) return <ErrorNote message="No project given. Pick one from your projects." />;
  return <Project key={slug} slug={slug} />;
}
