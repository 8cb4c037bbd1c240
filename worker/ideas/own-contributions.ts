// Editing and deleting one's own ideas and comments. The author is the writer who posted (a person, or one bot
// key): only they edit the text; they or an admin delete. An edited idea is re-indexed for the duplicate check.
// Each is one batch: the checks are guards in front of the write (board-guards.ts), so a refusal changes nothing.
import { eq, inArray, sql } from "drizzle-orm";
import { enrichmentVotes, enrichments, ideaComments, ideaVotes, ideas } from "../db/schema/ideas.ts";
import { indexStemsOf } from "../../core/similarity/terms-of.ts";
import type { BoardWrite } from "./board-batch.ts";
import { commentAuthor, commentExists, ideaAuthor, ideaExists } from "./board-guards.ts";
import type { Writer } from "./caller.ts";
import { commentRecord } from "./records.ts";

/** The columns that change with an idea's title and/or body: the text and its stems (for the ideas_fts triggers). */
export function ideaTextColumns(input: { title?: string; body?: string }) {
  return {
    ...(input.title !== undefined ? { title: input.title, titleTerms: indexStemsOf(input.title) } : {}),
    ...(input.body !== undefined ? { body: input.body, bodyTerms: indexStemsOf(input.body) } : {}),
  };
}

/** An idea with its votes, enrichments and comments, by its author or an admin. */
export async function deleteIdea({ db, batch }: BoardWrite, id: number, writer: Writer, admin: boolean): Promise<void> {
  const enrichmentIds = db.select({ id: enrichments.id }).from(enrichments).where(eq(enrichments.ideaId, id));
  await batch(
    [
      db.delete(enrichmentVotes).where(inArray(enrichmentVotes.enrichmentId, enrichmentIds)),
      db.delete(enrichments).where(eq(enrichments.ideaId, id)),
      db.delete(ideaComments).where(eq(ideaComments.ideaId, id)),
      db.delete(ideaVotes).where(eq(ideaVotes.ideaId, id)),
      db.delete(ideas).where(eq(ideas.id, id)),
    ],
    [ideaExists(id), ideaAuthor(id, writer.key, "delete", admin)],
  );
}

export async function editComment({ db, batch }: BoardWrite, id: number, writer: Writer, body: string) {
  const [updated] = await batch([db.update(ideaComments).set({ body }).where(eq(ideaComments.id, id)).returning()], [
    commentExists(id),
    commentAuthor(id, writer.key, "edit"),
  ]);
  const row = updated[0];
  if (!row) throw new Error("comment update returned nothing");
  return commentRecord(row);
}

/** A comment, by its author or an admin; the idea's comment count is recounted in the same batch. */
export async function deleteComment({ db, batch }: BoardWrite, id: number, writer: Writer, admin: boolean): Promise<void> {
  const ideaOfComment = db.select({ ideaId: ideaComments.ideaId }).from(ideaComments).where(eq(ideaComments.id, id));
  await batch(
    [
      // Recounted first, leaving this comment out, while the comment still names its idea.
      db
        .update(ideas)
        .set({ commentCount: sql`(SELECT count(*) FROM ${ideaComments} WHERE ${ideaComments.ideaId} = ${ideas.id} AND ${ideaComments.id} <> ${id})` })
        .where(inArray(ideas.id, ideaOfComment)),
      db.delete(ideaComments).where(eq(ideaComments.id, id)),
    ],
    [commentExists(id), commentAuthor(id, writer.key, "delete", admin)],
  );
}
