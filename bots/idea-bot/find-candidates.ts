// Where the daily idea bot's ideas come from: the studio's own research records. A record's open questions and
// ideas (the bullets under a heading "Open questions", "Ideas", "Next steps" or "Future work") are each a
// candidate idea. Pure: records in, candidates out, newest record first.

export interface ResearchRecord {
  slug: string;
  kind: string;
  name: string;
  body_md: string;
  updated_at: string;
}

export interface Candidate {
  title: string;
  body: string;
  /** "research:<slug>": where the idea came from, shown on the board. */
  source: string;
}

const SECTION = /^#{1,6}\s*(open questions?|ideas?|next steps?|future work)\s*:?\s*$/i;
const HEADING = /^#{1,6}\s/;
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(.+)$/;
const TITLE_MAX = 120;

/** A bullet's first sentence as a title (at most 120 characters, cut at a word). */
export function titleOf(text: string): string {
  const first = /^(.+?[.?!])(\s|$)/.exec(text)?.[1] ?? text;
  const plain = first.replace(/[*_`]/g, "").replace(/[.!]$/, "").trim();
  if (plain.length <= TITLE_MAX) return plain;
  const cut = plain.slice(0, TITLE_MAX);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 60 ? cut.lastIndexOf(" ") : TITLE_MAX).trimEnd()}…`;
}

/** The bullets of a record's idea sections (a bullet's indented continuation lines belong to it). */
export function bulletsOf(markdown: string): string[] {
  const bullets: string[] = [];
  let inSection = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (HEADING.test(line)) {
      inSection = SECTION.test(line);
      continue;
    }
    if (!inSection) continue;
    const bullet = BULLET.exec(line);
    if (bullet) bullets.push(bullet[1]!.trim());
    else if (/^\s{2,}\S/.test(line) && bullets.length) bullets[bullets.length - 1] += ` ${line.trim()}`;
  }
  return bullets.filter((b) => b.length >= 12);
}

/** Candidates from every record except the bot's own run logs, newest record first, without repeats. */
export function findCandidates(records: readonly ResearchRecord[], ownKind: string): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  const newest = [...records].filter((r) => r.kind !== ownKind).sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  for (const record of newest) {
    for (const bullet of bulletsOf(record.body_md)) {
      const title = titleOf(bullet);
      const key = title.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ title, body: `${bullet}\n\nFrom the research record "${record.name}" (${record.slug}).`, source: `research:${record.slug}` });
    }
  }
  return out;
}
