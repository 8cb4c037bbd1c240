// PATCH /api/ideas/:id: the author edits the title and/or body; admins move the status one step along
// open -> building -> shipped (or one step back to undo a mistake) and/or file the idea under a group. One batch:
// every check is a guard in front of the changes (board-guards.ts), so a refused request changes nothing, and the
// changed idea is read back (with the caller's `voted`) in the same round trip.
import { eq, getTableColumns } from "drizzle-orm";
import type { z } from "zod";
import { ideas } from "../db/schema/ideas.ts";
import type { Guard } from "../db/sql-guard.ts";
import type { BoardWrite } from "./board-batch.ts";
import { groupExists, ideaAuthor, ideaExists, statusMayBecome } from "./board-guards.ts";
import { ideaVotedBy } from "./caller-columns.ts";
import type { Writer } from "./caller.ts";
import { ideaTextColumns } from "./own-contributions.ts";
import { ideaRecord } from "./records.ts";
import type { patchIdeaBody } from "./schemas.ts";

export async function changeIdea({ db, batch }: BoardWrite, id: number, writer: Writer, input: z.output<ReturnType<typeof patchIdeaBody>>) {
  const guards: Guard[] = [ideaExists(id)];
  if (input.title !== undefined || input.body !== undefined) guards.push(ideaAuthor(id, writer.key, "edit"));
  if (input.status !== undefined) guards.push(statusMayBecome(db, id, input.status));
  if (input.group) guards.push(groupExists(input.group));
  const changes = {
    ...ideaTextColumns(input),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.group !== undefined ? { groupSlug: input.group } : {}),
  };
  const read = db.select({ ...getTableColumns(ideas), voted: ideaVotedBy(writer.person) }).from(ideas).where(eq(ideas.id, id)).limit(1);
  // patchIdeaBody asks for at least one field, so there is always something to set. The ideas_fts update trigger
  // re-indexes new terms in the same statement.
  const [, rows] = await batch([db.update(ideas).set(changes).where(eq(ideas.id, id)), read], guards);
  const row = rows[0];
  if (!row) throw new Error("changed idea not found after the change");
  return ideaRecord(row, row.voted);
}
