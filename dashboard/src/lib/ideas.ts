// Reads idea-board responses into the few fields the pages show. The reference leaves the record fields open,
// so each reader accepts the common spellings (camelCase and snake_case, counts or arrays). Pure.

export interface Enrichment {
  id: string;
  kind: string;
  body: string;
  author: string;
  votes: number;
  voted: boolean;
}

export interface Comment {
  id: string;
  body: string;
  author: string;
  createdAt: string;
  /** Written by the caller: they may edit and delete it. */
  mine: boolean;
}

export interface Idea {
  id: string;
  title: string;
  body: string;
  status: string;
  group: string;
  votes: number;
  voted: boolean;
  author: string;
  bot: boolean;
  source: string;
  createdAt: string;
  commentCount: number;
  enrichmentCount: number;
  /** Posted by the caller: they may edit and delete it. */
  mine: boolean;
  enrichments: Enrichment[];
  comments: Comment[];
}

export interface Similar {
  idea: Idea;
  score: number | null;
}

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(...values: unknown[]): string {
  for (const v of values) {
    if (typeof v === "string") return v;
    if (typeof v === "number") return String(v);
  }
  return "";
}

function num(...values: unknown[]): number {
  for (const v of values) {
    if (typeof v === "number" && Number.isFinite(v)) return v;
    if (Array.isArray(v)) return v.length;
  }
  return 0;
}

function nameOf(value: unknown): string {
  if (isRecord(value)) return str(value.name, value.displayName, value.login);
  return str(value);
}

function listIn(value: unknown, keys: string[]): unknown[] {
  if (Array.isArray(value)) return value;
  if (!isRecord(value)) return [];
  for (const key of keys) if (Array.isArray(value[key])) return value[key] as unknown[];
  return [];
}

export function readEnrichment(value: unknown): Enrichment {
  const e: Rec = isRecord(value) ? value : {};
  return {
    id: str(e.id),
    kind: str(e.kind, "note"),
    body: str(e.body, e.text),
    author: nameOf(e.author ?? e.name ?? e.user ?? e.author_name),
    votes: num(e.votes, e.voteCount, e.vote_count, e.score),
    voted: Boolean(e.voted ?? e.hasVoted ?? e.has_voted ?? e.myVote ?? e.my_vote),
  };
}

export function readComment(value: unknown): Comment {
  const c: Rec = isRecord(value) ? value : {};
  return {
    id: str(c.id),
    body: str(c.body, c.text),
    author: nameOf(c.author ?? c.name ?? c.user ?? c.author_name),
    createdAt: str(c.createdAt, c.created_at),
    mine: c.mine === true,
  };
}

export function readIdea(value: unknown): Idea {
  const outer: Rec = isRecord(value) ? value : {};
  const i: Rec = isRecord(outer.idea) ? outer.idea : outer;
  const group = isRecord(i.group) ? str(i.group.slug, i.group.name) : str(i.group, i.group_slug, i.groupSlug);
  return {
    id: str(i.id, i.slug),
    title: str(i.title),
    body: str(i.body, i.description),
    status: str(i.status, "open"),
    group,
    votes: num(i.votes, i.voteCount, i.vote_count, i.score),
    voted: Boolean(i.voted ?? i.hasVoted ?? i.has_voted ?? i.myVote ?? i.my_vote),
    author: nameOf(i.author ?? i.name ?? i.user ?? i.author_name ?? i.createdBy ?? i.created_by),
    bot: Boolean(i.bot ?? i.isBot ?? i.is_bot ?? (isRecord(i.author) && i.author.bot)),
    source: str(i.source),
    createdAt: str(i.createdAt, i.created_at),
    commentCount: num(outer.comments, i.commentCount, i.comment_count, i.comments),
    enrichmentCount: num(outer.enrichments, i.enrichmentCount, i.enrichment_count, i.enrichments),
    mine: i.mine === true,
    // A detail response is { idea, enrichments: [...], comments: [...] }; list records carry counts instead.
    enrichments: listIn(outer.enrichments, []).concat(outer === i ? [] : listIn(i.enrichments, [])).map(readEnrichment),
    comments: listIn(outer.comments, []).concat(outer === i ? [] : listIn(i.comments, [])).map(readComment),
  };
}

export function readIdeaList(value: unknown): Idea[] {
  return listIn(value, ["ideas", "items", "results", "data"]).map(readIdea);
}

export interface IdeaPage {
  ideas: Idea[];
  /** The offset of the next page, or null on the last one. */
  nextOffset: number | null;
  /** The caller is an admin (status, group, deletion). */
  admin: boolean;
}

/** One page of GET /api/ideas (offset paging: `nextOffset`). */
export function readIdeaPage(value: unknown): IdeaPage {
  const r: Rec = isRecord(value) ? value : {};
  const next = r.nextOffset ?? r.next_offset;
  return { ideas: readIdeaList(value), nextOffset: typeof next === "number" ? next : null, admin: r.admin === true };
}

/** Whether GET /api/ideas/:id says the caller is an admin. */
export function isAdminView(value: unknown): boolean {
  return isRecord(value) && value.admin === true;
}

/** Similar ideas from the duplicate check; entries may be ideas or `{ idea, score }`. */
export function readSimilar(value: unknown): Similar[] {
  const list = listIn(value, ["similar", "matches", "duplicates", "ideas", "results"]);
  const single = isRecord(value) && isRecord(value.idea) && list.length === 0 ? [value] : list;
  return single
    .map((entry) => {
      const e: Rec = isRecord(entry) ? entry : {};
      const score = typeof e.score === "number" ? e.score : typeof e.similarity === "number" ? e.similarity : null;
      return { idea: readIdea(isRecord(e.idea) ? e.idea : e), score };
    })
    .filter((s) => s.idea.title);
}

/** Whether the duplicate check says this is an existing idea (409-worthy), not just related. */
export function isDuplicate(value: unknown): boolean {
  return isRecord(value) && Boolean(value.exists ?? value.duplicate ?? value.isDuplicate);
}

export interface ResearchRecord {
  slug: string;
  name: string;
  summary: string | null;
  body_md: string;
  lines: string[];
  author: string;
  updated_at: string;
  cover_url: string | null;
  sources: unknown;
}

export function readResearch(value: unknown): ResearchRecord {
  const outer: Rec = isRecord(value) ? value : {};
  const r: Rec = isRecord(outer.record) ? outer.record : isRecord(outer.research) ? outer.research : outer;
  return {
    slug: str(r.slug),
    name: str(r.name, r.title, r.slug),
    summary: typeof r.summary === "string" ? r.summary : null,
    body_md: str(r.body_md, r.bodyMd),
    lines: Array.isArray(r.lines) ? r.lines.filter((l): l is string => typeof l === "string") : [],
    author: nameOf(r.author),
    updated_at: str(r.updated_at, r.updatedAt),
    cover_url: typeof r.cover_url === "string" ? r.cover_url : null,
    sources: r.sources ?? null,
  };
}

export function readResearchList(value: unknown): ResearchRecord[] {
  return listIn(value, ["research", "records", "items", "results"]).map(readResearch);
}
