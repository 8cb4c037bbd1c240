// Render rows in D1: what project summaries and GET /api/renders read without waking any Durable Object.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { nextRenderFilename } from "../../core/render/render-options.ts";
import type { Db } from "../db/client.ts";
import { renders } from "../db/schema/renders.ts";

export type RenderRow = typeof renders.$inferSelect;

/**
 * Inserts a new render's row only while the user has fewer than `limit` renders in progress (work-caps.ts). Rows
 * still marked in progress but started before `since` are past the wall-clock limit, so they hold no slot. One
 * statement, so parallel POSTs on different projects cannot slip past the limit. Returns whether it was inserted.
 */
export async function insertRenderWithin(db: Db, row: RenderRow, limit: number, since: number): Promise<boolean> {
  const result = await db.run(sql`
    INSERT INTO ${renders} (id, user_id, slug, filename, format, status, size, last_line, started_at, done_at, deleted_at)
    SELECT ${row.id}, ${row.userId}, ${row.slug}, ${row.filename}, ${row.format}, ${row.status}, NULL, NULL, ${row.startedAt}, NULL, NULL
    WHERE (SELECT count(*) FROM ${renders}
           WHERE user_id = ${row.userId} AND status IN ('queued', 'rendering') AND started_at > ${since}) < ${limit}`);
  return result.meta.changes === 1;
}

export async function updateRender(db: Db, id: string, patch: Partial<Omit<RenderRow, "id" | "userId">>): Promise<void> {
  await db.update(renders).set(patch).where(eq(renders.id, id));
}

/** Whether a file name is already used by this user (a render that starts in the same second as another). */
async function filenameTaken(db: Db, userId: string, filename: string): Promise<boolean> {
  const row = await db.query.renders.findFirst({ where: and(eq(renders.userId, userId), eq(renders.filename, filename)) });
  return row !== undefined;
}

/** `filename`, or the first one a second later each time that this user has not used (renders that start in the
 * same second). */
export async function freeRenderFilename(db: Db, userId: string, filename: string): Promise<string> {
  let name = filename;
  while (await filenameTaken(db, userId, name)) {
    const next = nextRenderFilename(name);
    if (next === name) throw new Error(`render file name ${name} is taken and not in the slug_date_time form`);
    name = next;
  }
  return name;
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
    // The render's id, so GET /api/renders/:id (its state, options and webhook deliveries) is reachable from a list.
    id: row.id,
    filename: row.filename,
    project: row.slug,
    size: row.size ?? 0,
    mtime: new Date(row.doneAt ?? row.startedAt).toISOString(),
    url: `/renders/${row.filename}`,
  };
}
