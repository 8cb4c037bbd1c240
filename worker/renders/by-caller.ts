// Reads of one caller's renders for GET /api/renders (paged) and GET /api/renders/:id. Every query is scoped to
// the caller's user id, so another user's render id answers exactly like a missing one.
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { afterKeyset, newestFirst, type Keyset } from "../db/keyset.ts";
import { renders } from "../db/schema/renders.ts";
import { downloadableRow, type RenderRow } from "./store.ts";

/** Finished files the user still has, newest first (ties by id), `limit + 1` rows after `after` when paged. */
export async function renderFilesPage(db: Db, userId: string, page?: { limit: number; after: Keyset | null }): Promise<RenderRow[]> {
  const query = db
    .select()
    .from(renders)
    .where(
      and(
        eq(renders.userId, userId),
        downloadableRow(),
        afterKeyset(renders.startedAt, renders.id, page?.after ?? null),
      ),
    )
    .orderBy(...newestFirst(renders.startedAt, renders.id));
  return page ? query.limit(page.limit + 1).all() : query.all();
}

/** The caller's render `id`, or null. */
export async function findCallerRender(db: Db, userId: string, id: string): Promise<RenderRow | null> {
  return (await db.select().from(renders).where(and(eq(renders.userId, userId), eq(renders.id, id))).get()) ?? null;
}
