// Reads idea-board and research answers into what the pages show. Pure. The answers' types are those of the
// schemas the Worker declares them with (worker/ideas/shapes.ts, worker/research/shapes.ts; type-only imports, so
// nothing of them is bundled): each field is read by its one name, never by guessing among spellings.
import type * as z from "zod";
import type { comment, createdIdea, duplicate, enrichment, idea, ideaDetail, ideaPage, similarIdeas, vote } from "../../../worker/ideas/shapes.ts";
import type { researchList, researchRecord } from "../../../worker/research/shapes.ts";

type Shape<T extends () => z.ZodType> = z.infer<ReturnType<T>>;
type IdeaRecord = Shape<typeof idea>;
/** GET /api/ideas. */
export type IdeaPageAnswer = Shape<typeof ideaPage>;
/** GET /api/ideas/:id. */
export type IdeaDetailAnswer = Shape<typeof ideaDetail>;
/** POST /api/ideas/check. */
export type SimilarAnswer = Shape<typeof similarIdeas>;
/** POST /api/ideas's 201: the idea posted. */
export type CreatedIdeaAnswer = Shape<typeof createdIdea>;
/** POST /api/ideas's 409: a similar idea exists. */
export type DuplicateAnswer = Shape<typeof duplicate>;
/** POST …/vote (ideas and enrichments). */
export type VoteAnswer = Shape<typeof vote>;
/** A research record (GET /api/research, GET /api/research/:slug). */
export type ResearchRecord = Shape<typeof researchRecord>;
/** GET /api/research. */
export type ResearchList = Shape<typeof researchList>;

// The pages' views: the contract's fields, ids as the strings addresses carry, the author's name as `author`.
export type Enrichment = Pick<Shape<typeof enrichment>, "kind" | "body" | "votes" | "voted"> & { id: string; author: string };

export type Comment = Pick<Shape<typeof comment>, "body" | "createdAt"> & {
  id: string;
  author: string;
  /** Written by the caller: they may edit and delete it. */
  mine: boolean;
};

export type Idea = Pick<IdeaRecord, "title" | "body" | "status" | "votes" | "voted" | "createdAt"> & {
  id: string;
  /** The group's slug, "" for none (the filter's and the select's value). */
  group: string;
  author: string;
  bot: boolean;
  source: string | null;
  commentCount: number;
  enrichmentCount: number;
  /** Posted by the caller: they may edit and delete it. */
  mine: boolean;
  /** The detail's enrichments and comments; empty in lists, which carry the counts. */
  enrichments: Enrichment[];
  comments: Comment[];
};

export interface Similar {
  idea: Idea;
  score: number;
}

export function readEnrichment(e: Shape<typeof enrichment>): Enrichment {
  return { id: String(e.id), kind: e.kind, body: e.body, author: e.name, votes: e.votes, voted: e.voted };
}

export function readComment(c: Shape<typeof comment>): Comment {
  return { id: String(c.id), body: c.body, author: c.name, createdAt: c.createdAt, mine: c.mine === true };
}

/** An idea record (a list's entry, a post's answer, a 409's existing idea), without enrichments and comments. */
export function readIdea(i: IdeaRecord): Idea {
  return {
    id: String(i.id),
    title: i.title,
    body: i.body,
    status: i.status,
    group: i.group ?? "",
    votes: i.votes,
    voted: i.voted,
    author: i.name,
    bot: i.isBot,
    source: i.source,
    createdAt: i.createdAt,
    commentCount: i.comments,
    enrichmentCount: i.enrichments,
    mine: i.mine === true,
    enrichments: [],
    comments: [],
  };
}

/** GET /api/ideas/:id: the idea with its enrichments and comments, and whether the caller is an admin. */
export function readIdeaDetail(answer: IdeaDetailAnswer): { idea: Idea; admin: boolean } {
  const idea = { ...readIdea(answer.idea), enrichments: answer.enrichments.map(readEnrichment), comments: answer.comments.map(readComment) };
  return { idea, admin: answer.admin };
}

export interface IdeaPage {
  ideas: Idea[];
  /** The offset of the next page, or null on the last one. */
  nextOffset: number | null;
  /** The caller is an admin (status, group, deletion). */
  admin: boolean;
}

/** One page of GET /api/ideas (offset paging: `nextOffset`). */
export function readIdeaPage(answer: IdeaPageAnswer): IdeaPage {
  return { ideas: answer.ideas.map(readIdea), nextOffset: answer.nextOffset, admin: answer.admin };
}

/** Similar ideas from the duplicate check, best first. */
export function readSimilar(answer: SimilarAnswer): Similar[] {
  return answer.similar.map((s) => ({ idea: readIdea(s.idea), score: s.score }));
}
