// Markdown -> a small, safe HTML subset for research records. Safety by construction: every character of the
// source is HTML-escaped before any tag is produced, so raw HTML in the Markdown always shows as text, and the
// only tags that exist are the ones this file writes. Links keep only http(s), mailto and relative targets.
// Supported: # headings, paragraphs, - / * / 1. lists, > quotes, ``` fences, `code`, **bold**, *italic*, [links](url).

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

/** The URL if it is http(s), mailto or relative (no scheme at all), else null. Checked on the unescaped text. */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:"), so strip them first.
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  if (scheme) return /^(https?|mailto)$/i.test(scheme[1] ?? "") ? url : null;
  if (compact.startsWith("//")) return null; // protocol-relative: another host, treat like a scheme we did not allow
  return url;
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) =>
    ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name] ?? "",
  );
}

/** Inline markup of text that is already escaped. Code spans are set aside first so nothing inside them changes. */
function renderInline(escaped: string): string {
  const codes: string[] = [];
  let out = escaped.replace(/`([^`]+)`/g, (_m, code: string) => {
    codes.push(`<code>${code}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  out = out.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, href: string) => {
    const safe = safeHref(unescapeHtml(href));
    return safe === null ? label : `<a href="${escapeHtml(safe)}" rel="nofollow noopener noreferrer">${label}</a>`;
  });
  out = out.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>").replace(/(^|[^*])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>");
  return out.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => codes[Number(i)] ?? "");
}

interface Block {
  kind: "p" | "ul" | "ol" | "quote";
  lines: string[];
}

/** Renders Markdown to safe HTML. */
export function renderMarkdown(markdown: string): string {
  const html: string[] = [];
  let block: Block | null = null;
  let fence: string[] | null = null;
  const flush = () => {
    if (!block) return;
    if (block.kind === "p") html.push(`<p>${renderInline(block.lines.join(" "))}</p>`);
    else if (block.kind === "quote") html.push(`<blockquote><p>${renderInline(block.lines.join(" "))}</p></blockquote>`);
    else html.push(`<${block.kind}>${block.lines.map((l) => `<li>${renderInline(l)}</li>`).join("")}</${block.kind}>`);
    block = null;
  };
  const add = (kind: Block["kind"], line: string) => {
    if (block?.kind !== kind) flush();
    block ??= { kind, lines: [] };
    block.lines.push(line);
  };
  for (const rawLine of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    if (fence) {
      if (/^\s*```/.test(rawLine)) {
        html.push(`<pre><code>${fence.join("\n")}</code></pre>`);
        fence = null;
      } else fence.push(escapeHtml(rawLine));
      continue;
    }
    if (/^\s*```/.test(rawLine)) {
      flush();
      fence = [];
      continue;
    }
    const line = escapeHtml(rawLine);
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const quote = /^\s*&gt;\s?(.*)$/.exec(line);
    if (line.trim() === "") flush();
    else if (heading) {
      flush();
      const level = heading[1]?.length ?? 1;
      html.push(`<h${level}>${renderInline(heading[2] ?? "")}</h${level}>`);
    } else if (bullet) add("ul", bullet[1] ?? "");
    else if (numbered) add("ol", numbered[1] ?? "");
    else if (quote) add("quote", quote[1] ?? "");
    else add("p", line.trim());
  }
  if (fence) html.push(`<pre><code>${fence.join("\n")}</code></pre>`);
  flush();
  return html.join("\n");
}
