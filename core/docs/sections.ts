// The one splitter of the docs' text at its Markdown headings ("# ", "## ", "### "): the Worker cuts whole
// sections out of the reference with it (/skill.md, the MCP prompt) and the dashboard's docs page splits the
// served GET /api/docs into headings, prose and examples with it, so both read the same text the same way. Pure.

export interface DocsHeading {
  level: number;
  text: string;
}

/** A heading (null for the text before the first one) and the lines under it, up to the next heading. */
export interface DocsPart {
  heading: DocsHeading | null;
  lines: string[];
}

/** The heading a line is, at level `maxLevel` or above (fewer #), or null. */
function headingOf(line: string, maxLevel: number): DocsHeading | null {
  const match = /^(#{1,6}) (.+)$/.exec(line);
  if (!match?.[1] || match[1].length > maxLevel) return null;
  return { level: match[1].length, text: match[2] ?? "" };
}

/** `text` cut at every heading of level 1 to `maxLevel`; deeper headings stay in their part's lines. */
export function splitAtHeadings(text: string, maxLevel: number): DocsPart[] {
  const parts: DocsPart[] = [{ heading: null, lines: [] }];
  for (const line of text.split("\n")) {
    const heading = headingOf(line, maxLevel);
    if (heading) parts.push({ heading, lines: [] });
    else parts.at(-1)?.lines.push(line);
  }
  return parts;
}

/** The body of the "## <heading>" section of `text` (its "### " subsections included), trimmed. Throws when the
 * section is missing: a page built from a section that is not there must fail, not ship without it. */
export function sectionOf(text: string, heading: string): string {
  const part = splitAtHeadings(text, 2).find((p) => p.heading?.level === 2 && p.heading.text === heading);
  if (!part) throw new Error(`docs section "${heading}" is missing`);
  return part.lines.join("\n").trim();
}
