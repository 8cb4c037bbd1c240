// Enrichments and comments: appended to an idea, with the idea's stored count recounted in the same batch, and the
// idea's existence checked there too (a guard): one round trip.
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { enrichments, ideaComments, ideas } from "../db/schema/ideas.ts";
import type { BoardWrite } from "./board-batch.ts";
import { ideaExists } from "./board-guards.ts";
import type { Writer } from "./caller.ts";
import { commentRecord, enrichmentRecord } from "./records.ts";
import type { commentBody, enrichmentBody } from "./schemas.ts";

export async function addEnrichment({ db, batch }: BoardWrite, ideaId: number, writer: Writer, input: z.output<ReturnType<typeof enrichmentBody>>) {
  const [inserted] = await batch(
    [
      db
        .insert(enrichments)
        .values({ ideaId, kind: input.kind, body: input.body, name: input.name ?? writer.name, author: writer.key, isBot: writer.isBot, createdAt: Date.now() })
        .returning(),
      db
        .update(ideas)
        .set({ enrichmentCount: sql`(SELECT count(*) FROM ${enrichments} WHERE ${enrichments.ideaId} = ${ideaId})` })
        .where(eq(ideas.id, ideaId)),
    ],
    [ideaExists(ideaId)],
  );
  const row = inserted[0];
  if (!row) throw new Error("enrichment insert returned nothing");
  return enrichmentRecord(row, false);
}

export async function addComment({ db, batch }: BoardWrite, ideaId: number, writer: Writer, input: z.output<ReturnType<typeof commentBody>>) {
  const [inserted] = await batch(
    [
      db
        .insert(ideaComments)
        .values({ ideaId, body: input.body, name: input.name ?? writer.name, author: writer.key, isBot: writer.isBot, createdAt: Date.now() })
        .returning(),
      db
        .update(ideas)
        .set({ commentCount: sql`(SELECT count(*) FROM ${ideaComments} WHERE ${ideaComments.ideaId} = ${ideaId})` })
        .where(eq(ideas.id, ideaId)),
    ],
    [ideaExists(ideaId)],
  );
  const row = inserted[0];
  if (!row) throw new Error("comment insert returned nothing");
  return commentRecord(row);
}
