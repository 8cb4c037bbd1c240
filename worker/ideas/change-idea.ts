// PATCH /api/ideas/:id (admins): move the status one step along open -> building -> shipped (or one step back
// to undo a mistake), and/or file the idea under a group.
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../db/client.ts";
import { ideas } from "../db/schema/ideas.ts";
import { conflict } from "../http/errors.ts";
import { ideaRecordFor, requireIdeaRow } from "./get-idea.ts";
import { requireGroup } from "./groups.ts";
import { IDEA_STATUSES, type patchIdeaBody } from "./schemas.ts";

/** One step forward or back; staying put is allowed (idempotent PATCH). */
export function isAllowedTransition(from: string, to: string): boolean {
  const a = IDEA_STATUSES.indexOf(from as (typeof IDEA_STATUSES)[number]);
  const b = IDEA_STATUSES.indexOf(to as (typeof IDEA_STATUSES)[number]);
  return a >= 0 && b >= 0 && Math.abs(a - b) <= 1;
}

export async function changeIdea(db: Db, id: number, input: z.output<typeof patchIdeaBody>, voter: string | null) {
  const row = await requireIdeaRow(db, id);
  if (input.status && !isAllowedTransition(row.status, input.status)) {
    throw conflict(`invalid status change: ${row.status} -> ${input.status} (one step at a time: open, building, shipped)`, {}, "invalid_status_change");
  }
  if (input.group) await requireGroup(db, input.group);
  await db
    .update(ideas)
    .set({
      ...(input.status ? { status: input.status } : {}),
      ...(input.group !== undefined ? { groupSlug: input.group } : {}),
    })
    .where(eq(ideas.id, id));
  return ideaRecordFor(db, id, voter);
}
