// POST /api/ideas: refuse a duplicate (409 with the existing idea) unless forced, else insert and index it.
// The duplicate check reads through `read` (the request's D1 session: a nearby replica, or one at least as new as the
// bookmark the client sent back), and the insert goes to the primary in one batch with the rate-limit spend and the
// group check: one round trip to the primary. A replica may be a moment behind the primary, so an idea someone else
// posted in that moment may not be seen; reading the primary would not close that gap either (two posts in flight
// at once both pass any check made before they insert), and the client's own posts are always seen through its
// bookmark.
import { sql } from "drizzle-orm";
import { DUPLICATE_THRESHOLD } from "../../core/similarity/thresholds.ts";
import type { Db } from "../db/client.ts";
import { ideas } from "../db/schema/ideas.ts";
import type { BoardWrite } from "./board-batch.ts";
import { groupExists } from "./board-guards.ts";
import { counters } from "../db/schema/stats.ts";
import { conflict } from "../http/errors.ts";
import type { Writer } from "./caller.ts";
import { indexStemsOf } from "../../core/similarity/terms-of.ts";
import { findSimilar } from "./find-similar.ts";
import { ideaRecord } from "./records.ts";
import type { createIdeaBody } from "./schemas.ts";
import type { z } from "zod";

export const DUPLICATES_COUNTER = "ideaDuplicatesRefused";

export async function createIdea(read: Db, { db, batch }: BoardWrite, writer: Writer, input: z.output<ReturnType<typeof createIdeaBody>>) {
  const guards = input.group ? [groupExists(input.group)] : [];
  if (input.force !== true) {
    const [best] = await findSimilar(read, input, writer.person);
    if (best && best.score >= DUPLICATE_THRESHOLD) {
      const countRefusal = db
        .insert(counters)
        .values({ name: DUPLICATES_COUNTER, value: 1 })
        .onConflictDoUpdate({ target: counters.name, set: { value: sql`${counters.value} + 1` } });
      // An unknown group is the 400 it would be without the duplicate.
      await batch([countRefusal], guards);
      throw conflict("idea already exists: vote for it instead, or send force: true", {
        exists: true,
        idea: ideaRecord(best.row, best.row.voted),
        score: best.score,
      }, "duplicate_idea");
    }
  }
  const [inserted] = await batch(
    [
      db
      .insert(ideas)
      .values({
        title: input.title,
        body: input.body,
        source: input.source || null,
        name: input.name ?? writer.name,
        author: writer.key,
        isBot: writer.isBot,
        groupSlug: input.group ?? null,
        createdAt: Date.now(),
        // The ideas_fts triggers index these in the same statement.
        titleTerms: indexStemsOf(input.title),
        bodyTerms: indexStemsOf(input.body),
      })
      .returning(),
    ],
    guards,
  );
  const row = inserted[0];
  if (!row) throw new Error("idea insert returned nothing");
  return ideaRecord(row, false);
}
