// Project rows in D1, always looked up by (owner, slug): another user's project answers exactly as a missing one.
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { projects } from "../db/schema/projects.ts";
import type { ProjectRef } from "../files/keys.ts";
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

/** The user's projects, newest first, as a query that can join a D1 batch. */
export function projectRowsQuery(db: Db, userId: string) {
  return db.select().from(projects).where(eq(projects.userId, userId)).orderBy(desc(projects.createdAt));
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
