// A small Markdown reader for research records. It builds a tree of plain data, never HTML strings: every piece
// of the source, raw HTML included, ends up as text that Preact escapes. Links keep only http(s), mailto and
// relative targets. Pure.

export type Inline =
  | { t: "text"; text: string }
  | { t: "code"; text: string }
  | { t: "strong" | "em" | "del"; children: Inline[] }
  | { t: "a"; href: string; children: Inline[] }
  | { t: "br" };

export type Block =
  | { t: "h"; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { t: "p"; children: Inline[] }
  | { t: "ul"; items: Inline[][] }
  | { t: "ol"; start: number; items: Inline[][] }
  | { t: "pre"; text: string; lang: string }
  | { t: "blockquote"; children: Block[] }
  | { t: "hr" };

/** The link target if it is http(s), mailto or relative; null for anything else (javascript:, data:, …). */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  // Browsers ignore tabs, newlines and control characters inside a scheme, so judge the URL without them.
  const squeezed = href.replace(/[\u0000-\u0020\u007f]/g, "");
  if (!squeezed) return null;
  // "//host/x" (and "\\host") is relative in name only: it leaves the site.
  if (/^[\\/]{2}/.test(squeezed)) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed);
  if (!scheme) return href;
  return /^(https?|mailto)$/i.test(scheme[1] ?? "") ? href : null;
}

const INLINE_RULES: { re: RegExp; make: (m: RegExpExecArray) => Inline }[] = [
  { re: /^`([^`]+)`/, make: (m) => ({ t: "code", text: m[1] ?? "" }) },
  { re: /^!?\[([^\]]*)\]\(\s*<?([^\s)>]*)>?(?:\s+"[^"]*")?\s*\)/, make: (m) => link(m[1] ?? "", m[2] ?? "") },
  { re: /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i, make: (m) => link(m[1] ?? "", m[1] ?? "") },
  { re: /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/, make: (m) => ({ t: "strong", children: parseInline(m[2] ?? "") }) },
  { re: /^~~(?=\S)([\s\S]*?\S)~~/, make: (m) => ({ t: "del", children: parseInline(m[1] ?? "") }) },
  { re: /^(\*|_)(?=\S)([\s\S]*?\S)\1(?![\w*])/, make: (m) => ({ t: "em", children: parseInline(m[2] ?? "") }) },
  { re: /^ {2,}\n|^\\\n/, make: () => ({ t: "br" }) },
];

function link(label: string, target: string): Inline {
  const href = safeHref(target);
  const children = parseInline(label || target);
  return href === null ? { t: "em", children } : { t: "a", href, children };
}

/** Inline Markdown (code, links, emphasis) to nodes; anything unrecognised stays literal text. */
export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let text = "";
  let i = 0;
  const flush = () => {
    if (text) out.push({ t: "text", text });
    text = "";
  };
  while (i < source.length) {
    const rest = source.slice(i);
    const ch = source[i] ?? "";
    if (ch === "\\" && /^\\[\\`*_{}[\]()#+\-.!~<>|]/.test(rest)) {
      text += rest[1];
      i += 2;
      continue;
    }
    let matched = false;
    if ("`[!<*_~ \\".includes(ch)) {
      for (const rule of INLINE_RULES) {
        const m = rule.re.exec(rest);
        if (m) {
          flush();
          out.push(rule.make(m));
          i += m[0].length;
          matched = true;
          break;
        }
      }
    }
    if (!matched) {
      text += ch;
      i++;
    }
  }
  flush();
  return out;
}

const FENCE = /^ {0,3}(```|~~~)\s*([\w+-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^ {0,3}[-*+]\s+(.*)$/;
const ORDERED = /^ {0,3}(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || BULLET.test(line) || ORDERED.test(line) || QUOTE.test(line);
}

/** Block Markdown to nodes: headings, paragraphs, lists, code fences, quotes, rules. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? "").trimStart().startsWith(fence[1] ?? "```")) body.push(lines[i++] ?? "");
      i++;
      blocks.push({ t: "pre", text: body.join("\n"), lang: fence[2] ?? "" });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ t: "h", level: (heading[1]?.length ?? 1) as 1, children: parseInline(heading[2] ?? "") });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ t: "hr" });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? "")) inner.push(QUOTE.exec(lines[i++] ?? "")?.[1] ?? "");
      blocks.push({ t: "blockquote", children: parseMarkdown(inner.join("\n")) });
      continue;
    }
    const ordered = ORDERED.exec(line);
    if (BULLET.test(line) || ordered) {
      const pattern = ordered ? ORDERED : BULLET;
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i] ?? "";
        const m = pattern.exec(current);
        if (m) items.push((ordered ? m[2] : m[1]) ?? "");
        else if (current.trim() && /^\s+/.test(current) && items.length) items[items.length - 1] += " " + current.trim();
        else break;
        i++;
      }
      const parsed = items.map((item) => parseInline(item));
      blocks.push(ordered ? { t: "ol", start: Number(ordered[1]), items: parsed } : { t: "ul", items: parsed });
      continue;
    }
    const para: string[] = [line];
    i++;
    while (i < lines.length && (lines[i] ?? "").trim() && !startsBlock(lines[i] ?? "")) para.push(lines[i++] ?? "");
    blocks.push({ t: "p", children: parseInline(para.join("\n")) });
  }
  return blocks;
}
