// "/docs": the API reference as a page. The Worker fills in the caller's token, so a signed-in person's examples
// carry their own token (each with a copy button) and a visitor's show the <TOKEN> placeholder.
import { useEffect, useState } from "preact/hooks";
import { CopyButton } from "../components/copy-button.tsx";
import { ErrorNote } from "../components/error-note.tsx";
import { api, errorText } from "../lib/api.ts";
import { docsBlocks, type DocsBlock } from "../lib/docs-blocks.ts";
import { useSession } from "../session.ts";

function slugOf(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

export function DocsPage() {
  const { health } = useSession();
  const [blocks, setBlocks] = useState<DocsBlock[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const signedIn = Boolean(health.user);

  useEffect(() => {
    api<string>("/api/docs", { headers: { Accept: "text/plain" } }).then(
      (text) => setBlocks(docsBlocks(String(text))),
      (err) => setError(errorText(err)),
    );
  }, [signedIn]);

  const headings = (blocks ?? []).filter((b): b is Extract<DocsBlock, { kind: "heading" }> => b.kind === "heading" && b.level === 2);
  return (
    <>
      <h1 class="page-title">API reference</h1>
      <p class="muted" data-testid="docs-token-note">
        {signedIn
          ? "Every example below carries your own token: copy one and run it as it is. Keep the token secret; rotate it on your projects page if it leaks."
          : "Examples show <TOKEN> where your token goes. Sign in to see them with your own token, ready to copy."}
      </p>
      <p class="row wrap">
        <a class="button small ghost" href="/api/docs" data-native>
          Plain text
        </a>
        <a class="button small ghost" href="/api/openapi.json" data-native>
          OpenAPI
        </a>
      </p>
      <ErrorNote message={error} />
      {!blocks && !error && <p class="muted">Loading the reference…</p>}
      {headings.length > 0 && (
        <nav class="docs-toc" aria-label="Sections">
          {headings.map((h) => (
            <a key={h.text} href={`#${slugOf(h.text)}`} data-native>
              {h.text}
            </a>
          ))}
        </nav>
      )}
      <article class="panel docs" data-testid="docs">
        {blocks?.map((b, i) => {
          if (b.kind === "heading") {
            const Tag = b.level === 1 ? "h2" : "h3";
            return (
              <Tag key={i} id={slugOf(b.text)}>
                {b.text}
              </Tag>
            );
          }
          if (b.kind === "text") return <pre key={i} class="docs-text">{b.text}</pre>;
          return (
            <div key={i} class="example" data-testid="docs-example">
              <pre>
                <code>{b.text}</code>
              </pre>
              <CopyButton text={b.text} label="Copy" />
            </div>
          );
        })}
      </article>
    </>
  );
}
