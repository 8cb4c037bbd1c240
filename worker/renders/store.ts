// Reads of render rows in D1: what project summaries and GET /api/renders read without waking any Durable Object.
// The rows are written by the ProjectRoom only, through projection.ts.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { nextRenderFilename } from "../../core/render/render-options.ts";
import type { Db } from "../db/client.ts";
import { renders } from "../db/schema/renders.ts";

export type RenderRow = typeof renders.$inferSelect;

/**
 * A row whose file can be downloaded: done and not deleted. The query form of the rule the room applies to its
 * own render (isDownloadable, state.ts), whose row is written before its download is offered.
 */
export const downloadableRow = () => and(eq(renders.status, "done"), isNull(renders.deletedAt));

/** The same rule on a row already read. */
export const isDownloadableRow = (row: Pick<RenderRow, "status" | "deletedAt">) => row.status === "done" && row.deletedAt === null;

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


export async function findRenderFile(db: Db, userId: string, filename: string): Promise<RenderRow | null> {
  const row = await db.query.renders.findFirst({
    where: and(eq(renders.userId, userId), eq(renders.filename, filename), downloadableRow()),
  });
  return row ?? null;
}

/** The poster link and the render cache's mark the row's state holds (written by the room, state.ts); a row from
 * before posters has no poster link. */
function fieldsOfRow(row: RenderRow): { posterUrl: string | null; reusedFrom?: string; carriedFrom?: string; carriedSegments?: number; carriedFrames?: number } {
  const state = JSON.parse(row.state) as { posterUrl?: unknown; reusedFrom?: unknown; carriedFrom?: unknown; carriedSegments?: unknown; carriedFrames?: unknown };
  const { carriedFrom, carriedSegments, carriedFrames } = state;
  // What the render carried from an earlier one (state.ts), when the row's state says all of it.
  const carried = typeof carriedFrom === "string" && typeof carriedSegments === "number" && typeof carriedFrames === "number" ? { carriedFrom, carriedSegments, carriedFrames } : {};
  return { posterUrl: typeof state.posterUrl === "string" ? state.posterUrl : null, ...(typeof state.reusedFrom === "string" ? { reusedFrom: state.reusedFrom } : {}), ...carried };
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
    ...fieldsOfRow(row),
  };
}
