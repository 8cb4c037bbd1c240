// POST /api/ideas: refuse a duplicate (409 with the existing idea) unless forced, else insert and index it.
import { sql } from "drizzle-orm";
import { DUPLICATE_THRESHOLD } from "../../core/similarity/thresholds.ts";
import type { Db } from "../db/client.ts";
import { ideas } from "../db/schema/ideas.ts";
import { counters } from "../db/schema/stats.ts";
import { conflict } from "../http/errors.ts";
import type { Writer } from "./caller.ts";
import { indexStemsOf } from "../../core/similarity/terms-of.ts";
import { findSimilar } from "./find-similar.ts";
import { requireGroup } from "./groups.ts";
import { ideaRecord } from "./records.ts";
import type { createIdeaBody } from "./schemas.ts";
import type { z } from "zod";

export const DUPLICATES_COUNTER = "ideaDuplicatesRefused";

async function countRefusal(db: Db): Promise<void> {
  await db
    .insert(counters)
    .values({ name: DUPLICATES_COUNTER, value: 1 })
    .onConflictDoUpdate({ target: counters.name, set: { value: sql`${counters.value} + 1` } });
}

export async function createIdea(db: Db, writer: Writer, input: z.output<typeof createIdeaBody>) {
  if (input.group) await requireGroup(db, input.group);
  if (input.force !== true) {
    const [best] = await findSimilar(db, input, writer.person);
    if (best && best.score >= DUPLICATE_THRESHOLD) {
      await countRefusal(db);
      throw conflict("idea already exists: vote for it instead, or send force: true", {
        exists: true,
        idea: ideaRecord(best.row, best.row.voted),
        score: best.score,
      }, "duplicate_idea");
    }
  }
  const inserted = await db
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
      .returning();
  const row = inserted[0];
  if (!row) throw new Error("idea insert returned nothing");
  return ideaRecord(row, false);
}
