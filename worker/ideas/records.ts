// Rows -> the records the API returns. `voted` is always about the caller (false for anonymous readers).
import type { enrichments, ideaComments, ideas } from "../db/schema/ideas.ts";

type IdeaRow = typeof ideas.$inferSelect;
type EnrichmentRow = typeof enrichments.$inferSelect;
type CommentRow = typeof ideaComments.$inferSelect;

export interface IdeaRecord {
  id: number;
  title: string;
  body: string;
  source: string | null;
  name: string;
  isBot: boolean;
  group: string | null;
  status: string;
  votes: number;
  voted: boolean;
  enrichments: number;
  comments: number;
  createdAt: string;
}

export function ideaRecord(row: IdeaRow, voted: boolean): IdeaRecord {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    source: row.source,
    name: row.name,
    isBot: row.isBot,
    group: row.groupSlug,
    status: row.status,
    votes: row.votes,
    voted,
    enrichments: row.enrichmentCount,
    comments: row.commentCount,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export function enrichmentRecord(row: EnrichmentRow, voted: boolean) {
  return {
    id: row.id,
    ideaId: row.ideaId,
    kind: row.kind,
    body: row.body,
    name: row.name,
    isBot: row.isBot,
    votes: row.votes,
    voted,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export function commentRecord(row: CommentRow) {
  return {
    id: row.id,
    ideaId: row.ideaId,
    body: row.body,
    name: row.name,
    isBot: row.isBot,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
