// Editing and deleting one's own ideas and comments. The author is the writer who posted (a person, or one bot
// key): only they edit the text; they or an admin delete. An edited idea is re-indexed for the duplicate check.
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { enrichmentVotes, enrichments, ideaComments, ideaVotes, ideas } from "../db/schema/ideas.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { indexStemsOf } from "../../core/similarity/terms-of.ts";
import type { Writer } from "./caller.ts";
import { requireIdeaRow } from "./get-idea.ts";
import { commentRecord } from "./records.ts";

async function requireCommentRow(db: Db, id: number) {
  const row = await db.select().from(ideaComments).where(eq(ideaComments.id, id)).get();
  if (!row) throw notFound("no such comment");
  return row;
}

/** Title and/or body of an idea, by its author. */
export async function editIdeaText(db: Db, id: number, writer: Writer, input: { title?: string; body?: string }): Promise<void> {
  const row = await requireIdeaRow(db, id);
  if (row.author !== writer.key) throw forbidden("only the author can edit an idea");
  const title = input.title ?? row.title;
  const body = input.body ?? row.body;
  // The ideas_fts update trigger re-indexes the new terms in the same statement.
  await db.update(ideas).set({ title, body, titleTerms: indexStemsOf(title), bodyTerms: indexStemsOf(body) }).where(eq(ideas.id, id));
}

/** An idea with its votes, enrichments and comments, by its author or an admin. */
export async function deleteIdea(db: Db, id: number, writer: Writer, admin: boolean): Promise<void> {
  const row = await requireIdeaRow(db, id);
  if (row.author !== writer.key && !admin) throw forbidden("only the author or an admin can delete an idea");
  const enrichmentIds = db.select({ id: enrichments.id }).from(enrichments).where(eq(enrichments.ideaId, id));
  await db.batch([
    db.delete(enrichmentVotes).where(inArray(enrichmentVotes.enrichmentId, enrichmentIds)),
    db.delete(enrichments).where(eq(enrichments.ideaId, id)),
    db.delete(ideaComments).where(eq(ideaComments.ideaId, id)),
    db.delete(ideaVotes).where(eq(ideaVotes.ideaId, id)),
    db.delete(ideas).where(eq(ideas.id, id)),
  ]);
}

export async function editComment(db: Db, id: number, writer: Writer, body: string) {
  const row = await requireCommentRow(db, id);
  if (row.author !== writer.key) throw forbidden("only the author can edit a comment");
  const [updated] = await db.update(ideaComments).set({ body }).where(eq(ideaComments.id, id)).returning();
  return commentRecord(updated ?? { ...row, body });
}

/** A comment, by its author or an admin; the idea's comment count is recounted in the same batch. */
export async function deleteComment(db: Db, id: number, writer: Writer, admin: boolean): Promise<void> {
  const row = await requireCommentRow(db, id);
  if (row.author !== writer.key && !admin) throw forbidden("only the author or an admin can delete a comment");
  await db.batch([
    db.delete(ideaComments).where(eq(ideaComments.id, id)),
    db
      .update(ideas)
      .set({ commentCount: sql`(SELECT count(*) FROM ${ideaComments} WHERE ${ideaComments.ideaId} = ${row.ideaId})` })
      .where(eq(ideas.id, row.ideaId)),
  ]);
}
