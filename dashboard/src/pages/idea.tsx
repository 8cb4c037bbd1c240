// "/idea?id=…": one idea with its enrichments (typed additions, voted) and comments.
import { useAction } from "../lib/use-action.ts";
import { useCallback, useEffect, useState } from "preact/hooks";
import { ErrorNote } from "../components/error-note.tsx";
import { VoteButton } from "../components/vote-button.tsx";
import { api, ApiError, errorText } from "../lib/api.ts";
import { formatDate, plural } from "../lib/format.ts";
import { readIdeaDetail, readIdeaPage, type Comment, type Idea, type IdeaDetailAnswer, type IdeaPageAnswer } from "../lib/ideas.ts";
import type { Group, GroupList } from "../lib/types.ts";
import { MarkdownView } from "../components/markdown-view.tsx";
import { navigate } from "../lib/router.ts";
import { useSession } from "../session.ts";

const KINDS = [
  ["note", "Note"],
  ["use_case", "Use case"],
  ["angle", "Angle"],
  ["constraint", "Constraint"],
] as const;

const STATUSES = ["open", "building", "shipped"] as const;

/** GET /api/ideas/:id when the API has it; else the idea from the list. */
async function loadIdea(id: string): Promise<{ idea: Idea; admin: boolean }> {
  try {
    return readIdeaDetail(await api<IdeaDetailAnswer>(`/api/ideas/${encodeURIComponent(id)}`));
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    const found = readIdeaPage(await api<IdeaPageAnswer>("/api/ideas?sort=new")).ideas.find((i) => i.id === id);
    if (!found) throw err;
    return { idea: found, admin: false };
  }
}

/** The author's edit of an idea's title and body (PATCH /api/ideas/:id). */
function EditIdea({ idea, onDone, onCancel }: { idea: Idea; onDone: () => void; onCancel: () => void }) {
  const [title, setTitle] = useState(idea.title);
  const [body, setBody] = useState(idea.body);
  const { busy, error, run } = useAction();
  async function save(event: Event) {
    event.preventDefault();
    await run(async () => {
      await api(`/api/ideas/${encodeURIComponent(idea.id)}`, { method: "PATCH", json: { title, body } });
      onDone();
    });
  }
  return (
    <form class="stack" onSubmit={save} aria-label="Edit your idea">
      <div class="field">
        <label for="edit-idea-title">Title</label>
        <input id="edit-idea-title" required maxLength={200} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="edit-idea-body">Description (Markdown)</label>
        <textarea id="edit-idea-body" rows={6} required value={body} onInput={(e) => setBody(e.currentTarget.value)} />
      </div>
      <ErrorNote message={error} />
      <div class="row">
        <button type="submit" disabled={busy || !title.trim() || !body.trim()}>
          {busy ? "Saving…" : "Save idea"}
        </button>
        <button type="button" class="ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Admins move the status (one step at a time), file the idea under a group, or delete it. */
function AdminControls({ idea, onChanged, onError }: { idea: Idea; onChanged: () => void; onError: (m: string) => void }) {
  const [groups, setGroups] = useState<Group[]>([]);
  useEffect(() => {
    api<GroupList>("/api/groups").then(
      (res) => setGroups(res.groups),
      (err: unknown) => onError(`the groups could not be listed, so the idea cannot be filed under one: ${errorText(err)}`),
    );
  }, []);
  async function patch(json: Record<string, unknown>) {
    try {
      await api(`/api/ideas/${encodeURIComponent(idea.id)}`, { method: "PATCH", json });
      onChanged();
    } catch (err) {
      onError(errorText(err));
    }
  }
  return (
    <div class="admin-controls row wrap" role="group" aria-label="Admin controls" data-testid="admin-controls">
      <span class="badge warn">admin</span>
      <div class="field inline">
        <label for="admin-status">Status</label>
        <select id="admin-status" value={idea.status} onChange={(e) => void patch({ status: e.currentTarget.value })}>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div class="field inline">
        <label for="admin-group">Group</label>
        <select id="admin-group" value={idea.group} onChange={(e) => void patch({ group: e.currentTarget.value || null })}>
          <option value="">none</option>
          {groups.map((g) => (
            <option key={g.slug} value={g.slug}>
              {g.name}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function CommentItem({ comment, admin, onChanged, onError }: { comment: Comment; admin: boolean; onChanged: () => void; onError: (m: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(comment.body);
  const { busy, error, run } = useAction();
  async function save(event: Event) {
    event.preventDefault();
    await run(async () => {
      await api(`/api/comments/${encodeURIComponent(comment.id)}`, { method: "PATCH", json: { body } });
      setEditing(false);
      onChanged();
    });
  }
  async function remove() {
    if (!confirm("Delete this comment?")) return;
    try {
      await api(`/api/comments/${encodeURIComponent(comment.id)}`, { method: "DELETE" });
      onChanged();
    } catch (err) {
      onError(errorText(err));
    }
  }
  return (
    <li data-testid="comment" data-comment-id={comment.id}>
      {editing ? (
        <form class="stack" onSubmit={save} aria-label="Edit your comment">
          <label for={`edit-comment-${comment.id}`} class="visually-hidden">
            Your comment
          </label>
          <textarea id={`edit-comment-${comment.id}`} rows={3} required value={body} onInput={(e) => setBody(e.currentTarget.value)} />
          <ErrorNote message={error} />
          <div class="row">
            <button type="submit" class="small" disabled={busy || !body.trim()}>
              Save comment
            </button>
            <button type="button" class="small ghost" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <MarkdownView source={comment.body} />
      )}
      <p class="muted small-text row wrap">
        <span>
          {comment.author || "someone"}
          {comment.createdAt && ` · ${formatDate(comment.createdAt)}`}
        </span>
        {comment.mine && !editing && (
          <button type="button" class="small ghost" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        {(comment.mine || admin) && !editing && (
          <button type="button" class="small ghost danger" onClick={() => void remove()}>
            Delete
          </button>
        )}
      </p>
    </li>
  );
}

function EnrichForm({ id, onDone }: { id: string; onDone: () => void }) {
  const [kind, setKind] = useState("note");
  const [body, setBody] = useState("");
  const { busy, error, run } = useAction();
  async function submit(event: Event) {
    event.preventDefault();
    await run(async () => {
      await api(`/api/ideas/${encodeURIComponent(id)}/enrich`, { method: "POST", json: { kind, body } });
      setBody("");
      onDone();
    });
  }
  return (
    <form onSubmit={submit} class="stack" aria-label="Enrich this idea">
      <div class="field">
        <label for="enrich-kind">Kind</label>
        <select id="enrich-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {KINDS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="enrich-body">Your addition</label>
        <textarea id="enrich-body" rows={3} required value={body} onInput={(e) => setBody(e.currentTarget.value)} />
      </div>
      <ErrorNote message={error} />
      <button type="submit" disabled={busy || !body.trim()}>
        {busy ? "Adding…" : "Add"}
      </button>
    </form>
  );
}

function CommentForm({ id, onDone }: { id: string; onDone: () => void }) {
  const [body, setBody] = useState("");
  const { busy, error, run } = useAction();
  async function submit(event: Event) {
    event.preventDefault();
    await run(async () => {
      await api(`/api/ideas/${encodeURIComponent(id)}/comments`, { method: "POST", json: { body } });
      setBody("");
      onDone();
    });
  }
  return (
    <form onSubmit={submit} class="stack" aria-label="Comment on this idea">
      <div class="field">
        <label for="comment-body">Comment</label>
        <textarea id="comment-body" rows={3} required value={body} onInput={(e) => setBody(e.currentTarget.value)} />
      </div>
      <ErrorNote message={error} />
      <button type="submit" disabled={busy || !body.trim()}>
        {busy ? "Posting…" : "Post comment"}
      </button>
    </form>
  );
}

export function IdeaPage({ id }: { id: string }) {
  const { health } = useSession();
  const [idea, setIdea] = useState<Idea | null>(null);
  const [admin, setAdmin] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    loadIdea(id).then(
      (res) => {
        setIdea(res.idea);
        setAdmin(res.admin);
        setError(null);
      },
      (err) => setError(errorText(err)),
    );
  }, [id]);

  async function removeIdea() {
    if (!idea || !confirm(`Delete the idea "${idea.title}" with its comments and votes?`)) return;
    try {
      await api(`/api/ideas/${encodeURIComponent(idea.id)}`, { method: "DELETE" });
      navigate("/ideas");
    } catch (err) {
      setError(errorText(err));
    }
  }
  useEffect(load, [load]);

  const signedIn = Boolean(health.user);
  return (
    <>
      <p>
        <a href="/ideas">← Idea board</a>
      </p>
      <ErrorNote message={error} />
      {!idea && !error && <p class="muted">Loading…</p>}
      {idea && (
        <article class="panel idea-detail" data-testid="idea-detail">
          <div class="idea-head">
            {signedIn && (
              <VoteButton
                path={`/api/ideas/${encodeURIComponent(idea.id)}/vote`}
                votes={idea.votes}
                voted={idea.voted}
                label={idea.title}
                onVoted={(v) => setIdea({ ...idea, ...v })}
                onError={setError}
              />
            )}
            <div>
              <h1 class="page-title">{idea.title}</h1>
              <div class="idea-meta muted">
                <span class={`badge status-${idea.status}`}>{idea.status}</span>
                {idea.group && <span>in {idea.group}</span>}
                {idea.author && <span>by {idea.author}</span>}
                {idea.bot && <span class="badge info">bot</span>}
                {idea.createdAt && <span>{formatDate(idea.createdAt)}</span>}
                {!signedIn && <span>{plural(idea.votes, "vote")}</span>}
              </div>
            </div>
          </div>
          {(idea.mine || admin) && !editing && (
            <div class="row wrap">
              {idea.mine && (
                <button type="button" class="small ghost" onClick={() => setEditing(true)}>
                  Edit idea
                </button>
              )}
              <button type="button" class="small ghost danger" onClick={() => void removeIdea()}>
                Delete idea
              </button>
            </div>
          )}
          {admin && <AdminControls idea={idea} onChanged={load} onError={setError} />}
          {editing ? (
            <EditIdea
              idea={idea}
              onCancel={() => setEditing(false)}
              onDone={() => {
                setEditing(false);
                load();
              }}
            />
          ) : (
            <MarkdownView source={idea.body} class="idea-text" />
          )}
          {idea.source && <p class="muted">Source: {idea.source}</p>}

          <h2>Enrichments</h2>
          {idea.enrichments.length === 0 && <p class="muted">No enrichments yet.</p>}
          <ul class="enrichments">
            {idea.enrichments.map((e) => (
              <li key={e.id} class="enrichment">
                {signedIn && e.id && (
                  <VoteButton
                    path={`/api/enrichments/${encodeURIComponent(e.id)}/vote`}
                    votes={e.votes}
                    voted={e.voted}
                    label={`${e.kind} by ${e.author || "someone"}`}
                    onVoted={(v) => setIdea({ ...idea, enrichments: idea.enrichments.map((x) => (x.id === e.id ? { ...x, ...v } : x)) })}
                    onError={setError}
                  />
                )}
                <div class="enrichment-main">
                  <span class="badge">{e.kind.replace("_", " ")}</span>
                  {e.author && <span class="muted"> · {e.author}</span>}
                  <MarkdownView source={e.body} />
                </div>
              </li>
            ))}
          </ul>
          {signedIn && <EnrichForm id={idea.id} onDone={load} />}

          <h2>{idea.comments.length ? plural(idea.comments.length, "comment") : "Comments"}</h2>
          {idea.comments.length === 0 && <p class="muted">No comments yet.</p>}
          <ul class="comments">
            {idea.comments.map((c) => (
              <CommentItem key={c.id} comment={c} admin={admin} onChanged={load} onError={setError} />
            ))}
          </ul>
          {signedIn ? <CommentForm id={idea.id} onDone={load} /> : <p><a href="/#sign-in">Sign in</a> to vote, enrich and comment.</p>}
        </article>
      )}
    </>
  );
}
