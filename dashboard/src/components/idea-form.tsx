// Posting an idea, with similar ideas shown live while typing (debounced POST /api/ideas/check).
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, errorText } from "../lib/api.ts";
import { readIdea, readSimilar, type DuplicateAnswer, type Idea, type CreatedIdeaAnswer, type Similar, type SimilarAnswer } from "../lib/ideas.ts";
import { navigate } from "../lib/router.ts";
import { ErrorNote } from "./error-note.tsx";
import { logWhy } from "../lib/log-why.ts";

const CHECK_DELAY_MS = 350;

export function IdeaForm({ onPosted }: { onPosted: () => void }) {
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [similar, setSimilar] = useState<Similar[]>([]);
  const [duplicate, setDuplicate] = useState(false);
  const [existing, setExisting] = useState<Idea | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const request = useRef(0);

  useEffect(() => {
    if (title.trim().length < 3) {
      setSimilar([]);
      setDuplicate(false);
      return;
    }
    const id = ++request.current;
    const timer = setTimeout(async () => {
      try {
        const res = await api<SimilarAnswer>("/api/ideas/check", { method: "POST", json: { title, body } });
        if (id !== request.current) return;
        setSimilar(readSimilar(res));
        setDuplicate(res.duplicate);
      } catch (err) {
        // The live check is a hint: posting still reports duplicates.
        logWhy("the live duplicate check failed; posting still reports duplicates", err);
      }
    }, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [title, body]);

  async function post(force: boolean) {
    setBusy(true);
    setError(null);
    try {
      const res = await api<CreatedIdeaAnswer>("/api/ideas", { method: "POST", json: force ? { title, body, force: true } : { title, body } });
      const idea = readIdea(res.idea);
      setTitle("");
      setBody("");
      setSimilar([]);
      setExisting(null);
      onPosted();
      navigate(`/idea?id=${encodeURIComponent(idea.id)}`);
    } catch (err) {
      // The 409's body is the error with the existing idea (worker/ideas/shapes.ts's duplicate).
      if (err instanceof ApiError && err.status === 409) setExisting(readIdea((err.body as DuplicateAnswer).idea));
      else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="panel idea-form"
      aria-labelledby="post-idea-title"
      onSubmit={(e) => {
        e.preventDefault();
        void post(false);
      }}
    >
      <h2 id="post-idea-title">Post an idea</h2>
      <div class="field">
        <label for="idea-title">Title</label>
        <input id="idea-title" required maxLength={200} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="idea-body">What should be made, and for whom?</label>
        <textarea id="idea-body" required rows={4} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
      </div>
      {similar.length > 0 && (
        <div class={`similar ${duplicate ? "dup" : ""}`} role="status" aria-live="polite" data-testid="similar">
          <strong>{duplicate ? "This idea may already exist:" : "Similar ideas:"}</strong>
          <ul>
            {similar.slice(0, 5).map((s) => (
              <li key={s.idea.id}>
                <a href={`/idea?id=${encodeURIComponent(s.idea.id)}`}>{s.idea.title}</a>
                <span class="muted">
                  {" "}
                  · {s.idea.votes} votes{s.score !== null && ` · ${Math.round(s.score * 100)}% alike`}
                </span>
              </li>
            ))}
          </ul>
          <p class="muted small-text">If one of these is your idea, vote for it or enrich it instead of posting again.</p>
        </div>
      )}
      {existing && (
        <div class="similar dup" role="alert" data-testid="duplicate">
          <p>
            <strong>This idea already exists:</strong> <a href={`/idea?id=${encodeURIComponent(existing.id)}`}>{existing.title || "open it"}</a>.
            Vote for it or enrich it, or post yours anyway if it is truly different.
          </p>
          <button type="button" class="small ghost" onClick={() => post(true)} disabled={busy}>
            Post anyway
          </button>
        </div>
      )}
      <ErrorNote message={error} />
      <button type="submit" disabled={busy || !title.trim() || !body.trim()}>
        {busy ? "Posting…" : "Post idea"}
      </button>
    </form>
  );
}
