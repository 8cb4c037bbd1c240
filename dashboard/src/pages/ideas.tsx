// "/ideas": the idea board, sorted and filtered, with the post form for signed-in people.
import { useEffect, useRef, useState } from "preact/hooks";
import { BotKeys } from "../components/bot-keys.tsx";
import { ErrorNote } from "../components/error-note.tsx";
import { IdeaForm } from "../components/idea-form.tsx";
import { VoteButton } from "../components/vote-button.tsx";
import { api, errorText } from "../lib/api.ts";
import { readIdeaPage, type Idea, type IdeaPageAnswer } from "../lib/ideas.ts";
import type { Group, GroupList } from "../lib/types.ts";
import { plural } from "../lib/format.ts";
import { navigate } from "../lib/router.ts";
import { useSession } from "../session.ts";

const SORTS = ["hot", "top", "new"] as const;
const PAGE_SIZE = 20;
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
        <span class="vote static" aria-label={plural(idea.votes, "vote")}>
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
          <span>{plural(idea.commentCount, "comment")}</span>
          {idea.enrichmentCount > 0 && <span>{plural(idea.enrichmentCount, "enrichment")}</span>}
          {idea.mine && <span class="badge">yours</span>}
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
  const [nextOffset, setNextOffset] = useState<number | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [groups, setGroups] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const sentinel = useRef<HTMLDivElement>(null);
  const filterKey = `${sort}|${group}|${status}|${version}`;

  useEffect(() => {
    api<GroupList>("/api/groups").then(
      (res) => setGroups((g) => [...new Set([...g, ...res.groups.map((x) => x.slug)])].sort()),
      () => undefined,
    );
  }, []);

  // Offset paging (the API's limit/offset and nextOffset): the first page on every filter change, then the next
  // page whenever the end of the list scrolls into view, or on the "Load more" button.
  async function fetchPage(offset: number, key: string): Promise<void> {
    const params = new URLSearchParams({ sort, limit: String(PAGE_SIZE), offset: String(offset) });
    if (group) params.set("group", group);
    if (status) params.set("status", status);
    try {
      const page = readIdeaPage(await api<IdeaPageAnswer>(`/api/ideas?${params}`));
      if (key !== currentKey.current) return;
      setIdeas((list) => {
        const seen = new Set(offset === 0 ? [] : (list ?? []).map((i) => i.id));
        return [...(offset === 0 ? [] : (list ?? [])), ...page.ideas.filter((i) => !seen.has(i.id))];
      });
      setNextOffset(page.nextOffset);
      setGroups((g) => [...new Set([...g, ...page.ideas.map((i) => i.group).filter(Boolean)])].sort());
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }
  const currentKey = useRef(filterKey);
  useEffect(() => {
    currentKey.current = filterKey;
    setNextOffset(null);
    void fetchPage(0, filterKey);
  }, [filterKey]);

  async function loadMore() {
    if (nextOffset === null || loadingMore) return;
    setLoadingMore(true);
    await fetchPage(nextOffset, filterKey);
    setLoadingMore(false);
  }
  const loadMoreRef = useRef(loadMore);
  loadMoreRef.current = loadMore;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMoreRef.current();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ideas !== null]);

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
          <div ref={sentinel} class="list-end" data-testid="ideas-end">
            {nextOffset !== null ? (
              <button type="button" class="ghost" onClick={() => void loadMore()} disabled={loadingMore}>
                {loadingMore ? "Loading…" : "Load more"}
              </button>
            ) : (
              ideas && ideas.length > 0 && <p class="muted small-text">{plural(ideas.length, "idea")}, all shown.</p>
            )}
          </div>
        </section>
        {health.user ? (
          <div class="stack">
            <IdeaForm onPosted={() => setVersion((v) => v + 1)} />
            <BotKeys />
          </div>
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
