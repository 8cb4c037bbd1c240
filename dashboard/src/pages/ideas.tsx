// "/ideas": the idea board, sorted and filtered, with the post form for signed-in people.
import { useEffect, useState } from "preact/hooks";
import { ErrorNote } from "../components/error-note.tsx";
import { IdeaForm } from "../components/idea-form.tsx";
import { VoteButton } from "../components/vote-button.tsx";
import { api, errorText } from "../lib/api.ts";
import { readIdeaList, type Idea } from "../lib/ideas.ts";
import { navigate } from "../lib/router.ts";
import { useSession } from "../session.ts";

const SORTS = ["hot", "top", "new"] as const;
const STATUSES = ["open", "building", "shipped"] as const;

function excerpt(text: string, max = 220): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

export function IdeaRow({ idea, onChange, onError }: { idea: Idea; onChange: (idea: Idea) => void; onError: (m: string) => void }) {
  const { health } = useSession();
  return (
    <li class="idea" data-testid="idea" data-idea-id={idea.id}>
      {health.user ? (
        <VoteButton
          path={`/api/ideas/${encodeURIComponent(idea.id)}/vote`}
          votes={idea.votes}
          voted={idea.voted}
          label={idea.title}
          onVoted={(v) => onChange({ ...idea, ...v })}
          onError={onError}
        />
      ) : (
        <span class="vote static" aria-label={`${idea.votes} votes`}>
          <span aria-hidden="true">▲</span>
          <span class="vote-count">{idea.votes}</span>
        </span>
      )}
      <div class="idea-main">
        <a class="idea-title" href={`/idea?id=${encodeURIComponent(idea.id)}`}>
          {idea.title}
        </a>
        <p class="idea-body">{excerpt(idea.body)}</p>
        <div class="idea-meta muted">
          <span class={`badge status-${idea.status}`}>{idea.status}</span>
          {idea.group && <span>in {idea.group}</span>}
          {idea.author && (
            <span>
              by {idea.author}
              {idea.bot && <span class="badge info">bot</span>}
            </span>
          )}
          <span>{idea.commentCount} comments</span>
          {idea.enrichmentCount > 0 && <span>{idea.enrichmentCount} enrichments</span>}
        </div>
      </div>
    </li>
  );
}

export function IdeasPage({ query }: { query: URLSearchParams }) {
  const { health } = useSession();
  const sort = query.get("sort") ?? "hot";
  const group = query.get("group") ?? "";
  const status = query.get("status") ?? "";
  const [ideas, setIdeas] = useState<Idea[] | null>(null);
  const [groups, setGroups] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    api<{ groups?: { slug: string }[] }>("/api/groups").then(
      (res) => setGroups((g) => [...new Set([...g, ...(res.groups ?? []).map((x) => x.slug)])].sort()),
      () => undefined,
    );
  }, []);

  useEffect(() => {
    const params = new URLSearchParams({ sort });
    if (group) params.set("group", group);
    if (status) params.set("status", status);
    api(`/api/ideas?${params}`).then(
      (res) => {
        const list = readIdeaList(res);
        setIdeas(list);
        setGroups((g) => [...new Set([...g, ...list.map((i) => i.group).filter(Boolean)])].sort());
        setError(null);
      },
      (err) => setError(errorText(err)),
    );
  }, [sort, group, status, version]);

  function setFilter(key: string, value: string) {
    const params = new URLSearchParams(query);
    if (value) params.set(key, value);
    else params.delete(key);
    navigate(`/ideas?${params}`, { replace: true });
  }

  return (
    <>
      <h1 class="page-title">Idea board</h1>
      <p class="muted">What should the studio make next? People and bots post ideas; votes decide what rises.</p>
      <div class="ideas-layout">
        <section class="panel" aria-labelledby="ideas-title">
          <h2 id="ideas-title" class="visually-hidden">
            Ideas
          </h2>
          <div class="filters" role="group" aria-label="Sort and filter">
            <div class="segmented" role="radiogroup" aria-label="Sort">
              {SORTS.map((s) => (
                <button key={s} type="button" role="radio" aria-checked={sort === s} class={sort === s ? "active" : ""} onClick={() => setFilter("sort", s)}>
                  {s}
                </button>
              ))}
            </div>
            <div class="field inline">
              <label for="idea-status">Status</label>
              <select id="idea-status" value={status} onChange={(e) => setFilter("status", e.currentTarget.value)}>
                <option value="">all</option>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </div>
            <div class="field inline">
              <label for="idea-group">Group</label>
              <input
                id="idea-group"
                list="idea-groups"
                value={group}
                placeholder="any"
                onChange={(e) => setFilter("group", e.currentTarget.value.trim())}
              />
              <datalist id="idea-groups">
                {groups.map((g) => (
                  <option key={g} value={g} />
                ))}
              </datalist>
            </div>
          </div>
          <ErrorNote message={error} />
          {ideas?.length === 0 && <p class="muted">No ideas match.</p>}
          <ul class="ideas" data-testid="ideas">
            {ideas?.map((idea) => (
              <IdeaRow key={idea.id} idea={idea} onError={setError} onChange={(next) => setIdeas((list) => list?.map((i) => (i.id === next.id ? next : i)) ?? null)} />
            ))}
          </ul>
        </section>
        {health.user ? (
          <IdeaForm onPosted={() => setVersion((v) => v + 1)} />
        ) : (
          <section class="panel">
            <h2>Have an idea?</h2>
            <p>
              <a href="/#sign-in">Sign in</a> to post, vote, enrich and comment.
            </p>
          </section>
        )}
      </div>
    </>
  );
}
