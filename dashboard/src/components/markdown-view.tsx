// Markdown (comments, ideas, research) as sanitized HTML. The renderer (marked + DOMPurify) is a chunk of its own,
// loaded with the first Markdown on screen; until then the text shows as it is, which is always safe.
import { useEffect, useState } from "preact/hooks";

type Render = (source: string) => string;
let loaded: Promise<Render> | null = null;
const renderer = () => (loaded ??= import("../lib/render-markdown.ts").then((m) => m.renderMarkdown));

export function MarkdownView({ source, class: className = "" }: { source: string; class?: string }) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    let gone = false;
    void renderer().then((render) => !gone && setHtml(render(source)));
    return () => void (gone = true);
  }, [source]);
  if (html === null) return <div class={`markdown plain ${className}`}>{source}</div>;
  // Sanitized by DOMPurify with an allow-list (lib/render-markdown.ts) right above.
  return <div class={`markdown ${className}`} data-testid="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
