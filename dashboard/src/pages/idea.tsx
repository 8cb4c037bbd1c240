// "/idea?id=…": one idea with its enrichments (typed additions, voted) and comments.
import { useAction } from "../lib/use-action.ts";
import { useCallback, useEffect, useState } from "preact/hooks";
import { ErrorNote } from "../components/error-note.tsx";
import { VoteButton } from "../components/vote-button.tsx";
import { api, ApiError, errorText } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { readIdea, readIdeaList, type Idea } from "../lib/ideas.ts";
import { useSession } from "../session.ts";

const KINDS = [
  ["note", "Note"],
  ["use_case", "Use case"],
  ["angle", "Angle"],
  ["constraint", "Constraint"],
] as const;

/** GET /api/ideas/:id when the API has it; else the idea from the list. */
async function loadIdea(id: string): Promise<Idea> {
  try {
    return readIdea(await api(`/api/ideas/${encodeURIComponent(id)}`));
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    const found = readIdeaList(await api("/api/ideas?sort=new")).find((i) => i.id === id);
    if (!found) throw err;
    return found;
  }
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
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    loadIdea(id).then(
      (i) => {
        setIdea(i);
        setError(null);
      },
      (err) => setError(errorText(err)),
    );
  }, [id]);
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
                {!signedIn && <span>{idea.votes} votes</span>}
              </div>
            </div>
          </div>
          <p class="idea-text">{idea.body}</p>
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
                <div>
                  <span class="badge">{e.kind.replace("_", " ")}</span> {e.body}
                  {e.author && <span class="muted"> · {e.author}</span>}
                </div>
              </li>
            ))}
          </ul>
          {signedIn && <EnrichForm id={idea.id} onDone={load} />}

          <h2>Comments</h2>
          {idea.comments.length === 0 && <p class="muted">No comments yet.</p>}
          <ul class="comments">
            {idea.comments.map((c) => (
              <li key={c.id}>
                <p>{c.body}</p>
                <p class="muted small-text">
                  {c.author || "someone"}
                  {c.createdAt && ` · ${formatDate(c.createdAt)}`}
                </p>
              </li>
            ))}
          </ul>
          {signedIn ? <CommentForm id={idea.id} onDone={load} /> : <p><a href="/#sign-in">Sign in</a> to vote, enrich and comment.</p>}
        </article>
      )}
    </>
  );
}
