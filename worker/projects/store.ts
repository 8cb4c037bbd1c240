// Project rows in D1, always looked up by (owner, slug): another user's project answers exactly as a missing one.
import { and, eq } from "drizzle-orm";
import { afterKeyset, newestFirst, type Keyset } from "../db/keyset.ts";
import type { Db } from "../db/client.ts";
import { projects } from "../db/schema/projects.ts";
import type { ProjectRef } from "../storage/keys.ts";
import { notFound } from "../http/errors.ts";

export type ProjectRow = typeof projects.$inferSelect;

export async function findProject(db: Db, ref: ProjectRef): Promise<ProjectRow | null> {
  const row = await db.query.projects.findFirst({
    where: and(eq(projects.userId, ref.userId), eq(projects.slug, ref.slug)),
  });
  return row ?? null;
}

export async function requireProject(db: Db, ref: ProjectRef): Promise<ProjectRow> {
  const row = await findProject(db, ref);
  if (!row) throw notFound(`no project named ${ref.slug}`);
  return row;
}

/**
 * The user's projects, newest first (ties by id), as a query that can join a D1 batch. With a page, at most
 * `limit + 1` rows after `after`: the extra row tells whether there is a next page.
 */
export function projectRowsQuery(db: Db, userId: string, page?: { limit: number; after: Keyset | null }) {
  const query = db
    .select()
    .from(projects)
    .where(and(eq(projects.userId, userId), afterKeyset(projects.createdAt, projects.id, page?.after ?? null)))
    .orderBy(...newestFirst(projects.createdAt, projects.id));
  return page ? query.limit(page.limit + 1) : query;
}

/** Inserts the row; false when the slug is taken (the unique index decides, so racing creates cannot both win). */
export async function insertProject(db: Db, row: ProjectRow): Promise<boolean> {
  const inserted = await db.insert(projects).values(row).onConflictDoNothing().returning({ id: projects.id });
  return inserted.length === 1;
}

export async function deleteProjectRow(db: Db, ref: ProjectRef): Promise<void> {
  await db.delete(projects).where(and(eq(projects.userId, ref.userId), eq(projects.slug, ref.slug)));
}

export async function updateCompositionFacts(
  db: Db,
  ref: ProjectRef,
  facts: { compositionId?: string; duration?: number },
): Promise<void> {
  if (facts.compositionId === undefined && facts.duration === undefined) return;
  await db
    .update(projects)
    .set(facts)
    .where(and(eq(projects.userId, ref.userId), eq(projects.slug, ref.slug)));
}
