// Render rows in D1: what project summaries and GET /api/renders read without waking any Durable Object.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { renders } from "../db/schema/renders.ts";

export type RenderRow = typeof renders.$inferSelect;

export async function insertRender(db: Db, row: RenderRow): Promise<void> {
  await db.insert(renders).values(row);
}

export async function updateRender(db: Db, id: string, patch: Partial<Omit<RenderRow, "id" | "userId">>): Promise<void> {
  await db.update(renders).set(patch).where(eq(renders.id, id));
}

/** Whether a file name is already used by this user (a render that starts in the same second as another). */
export async function filenameTaken(db: Db, userId: string, filename: string): Promise<boolean> {
  const row = await db.query.renders.findFirst({ where: and(eq(renders.userId, userId), eq(renders.filename, filename)) });
  return row !== undefined;
}

/** The newest render of each of the user's projects, as a query that can join a D1 batch. */
export function latestRendersQuery(db: Db, userId: string) {
  return db
    .select()
    .from(renders)
    .where(
      and(
        eq(renders.userId, userId),
        sql`${renders.startedAt} = (SELECT max(r2.started_at) FROM renders r2 WHERE r2.user_id = ${renders.userId} AND r2.slug = ${renders.slug})`,
      ),
    );
}

export async function recentProjectRenders(db: Db, userId: string, slug: string, limit = 10): Promise<RenderRow[]> {
  return db
    .select()
    .from(renders)
    .where(and(eq(renders.userId, userId), eq(renders.slug, slug)))
    .orderBy(desc(renders.startedAt))
    .limit(limit)
    .all();
}

/** Finished files the user still has, newest first. */
export async function listRenderFiles(db: Db, userId: string): Promise<RenderRow[]> {
  return db
    .select()
    .from(renders)
    .where(and(eq(renders.userId, userId), eq(renders.status, "done"), isNull(renders.deletedAt)))
    .orderBy(desc(renders.startedAt))
    .all();
}

export async function findRenderFile(db: Db, userId: string, filename: string): Promise<RenderRow | null> {
  const row = await db.query.renders.findFirst({
    where: and(eq(renders.userId, userId), eq(renders.filename, filename), eq(renders.status, "done"), isNull(renders.deletedAt)),
  });
  return row ?? null;
}

export function renderListEntry(row: RenderRow) {
  return {
    filename: row.filename,
    project: row.slug,
    size: row.size ?? 0,
    mtime: new Date(row.doneAt ?? row.startedAt).toISOString(),
    url: `/renders/${row.filename}`,
  };
}
