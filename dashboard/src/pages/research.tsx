// "/research" lists research records; "/research?slug=…" shows one, its Markdown rendered safely.
import { useEffect, useState } from "preact/hooks";
import { ErrorNote } from "../components/error-note.tsx";
import { MarkdownView } from "../components/markdown-view.tsx";
import { api, errorText } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import type { ResearchList, ResearchRecord } from "../lib/ideas.ts";
import { ownImageSrc } from "../lib/own-image.ts";
import { safeHref } from "../lib/safe-href.ts";

function sourcesOf(value: unknown): { label: string; href: string | null }[] {
  if (!Array.isArray(value)) return [];
  return value.map((s) => {
    if (typeof s === "string") return { label: s, href: safeHref(s) };
    const r = (typeof s === "object" && s !== null ? s : {}) as Record<string, unknown>;
    const url = typeof r.url === "string" ? r.url : "";
    return { label: String(r.title ?? r.name ?? url), href: url ? safeHref(url) : null };
  });
}

function ResearchList() {
  const [records, setRecords] = useState<ResearchRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<ResearchList>("/api/research").then((res) => setRecords(res.records), (err) => setError(errorText(err)));
  }, []);
  return (
    <>
      <h1 class="page-title">Research</h1>
      <p class="muted">Notes the studio keeps on formats, techniques and tools.</p>
      <ErrorNote message={error} />
      {records?.length === 0 && <p class="muted">No research records yet.</p>}
      <ul class="research-list" data-testid="research">
        {records?.map((r) => (
          <li key={r.slug} class="panel">
            <a class="idea-title" href={`/research?slug=${encodeURIComponent(r.slug)}`}>
              {r.name}
            </a>
            {r.summary && <p>{r.summary}</p>}
            {r.lines.length > 0 && (
              <ul class="muted">
                {r.lines.slice(0, 3).map((l, i) => (
                  <li key={i}>{l}</li>
                ))}
              </ul>
            )}
            <p class="muted small-text">
              {r.author && `${r.author} · `}updated {formatDate(r.updated_at)}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}

function ResearchDetail({ slug }: { slug: string }) {
  const [record, setRecord] = useState<ResearchRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<ResearchRecord>(`/api/research/${encodeURIComponent(slug)}`).then(setRecord, (err) => setError(errorText(err)));
  }, [slug]);
  // A cover the studio serves is shown; one elsewhere is a link, never loaded for the viewer (own-image.ts).
  const coverImage = record?.cover_url ? ownImageSrc(record.cover_url, location.origin) : null;
  const coverLink = record?.cover_url && !coverImage ? safeHref(record.cover_url) : null;
  return (
    <>
      <p>
        <a href="/research">← Research</a>
      </p>
      <ErrorNote message={error} />
      {record && (
        <article class="panel research" data-testid="research-detail">
          <h1 class="page-title">{record.name}</h1>
          <p class="muted">
            {record.author && `${record.author} · `}updated {formatDate(record.updated_at)}
          </p>
          {coverImage && <img class="cover" src={coverImage} alt="" />}
          {coverLink && (
            <p class="muted small-text">
              <a href={coverLink} rel="noopener noreferrer nofollow" target="_blank" data-testid="cover-link">
                Cover image
              </a>{" "}
              (on another site, not loaded here)
            </p>
          )}
          {record.summary && <p class="lead">{record.summary}</p>}
          <MarkdownView source={record.body_md} />
          {sourcesOf(record.sources).length > 0 && (
            <>
              <h2>Sources</h2>
              <ul>
                {sourcesOf(record.sources).map((s, i) => (
                  <li key={i}>{s.href ? <a href={s.href} rel="noopener noreferrer nofollow" target="_blank">{s.label}</a> : s.label}</li>
                ))}
              </ul>
            </>
          )}
        </article>
      )}
    </>
  );
}

export function ResearchPage({ slug }: { slug: string | null }) {
  return slug ? <ResearchDetail slug={slug} /> : <ResearchList />;
}
