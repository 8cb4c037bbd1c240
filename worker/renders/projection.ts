// The D1 render row is a projection of the ProjectRoom's state: the room (worker/renders/room/project-room.ts) is the only
// caller of these functions, at each transition. The row keeps the columns lists and limits query (status, size,
// times, deletion) and the render's public state as the contract shapes it (core/protocol/render-state.ts, built by
// publicRenderState), so every reader of a render that is not the room's live one, GET /api/renders/:id and the
// project summaries, reads the very state the room showed, never one rebuilt from columns and guesses.
import { eq, sql } from "drizzle-orm";
import { RenderStateSchema, type RenderState } from "../../core/protocol/render-state.ts";
import type { Db } from "../db/client.ts";
import { rawStatement } from "../db/raw-statement.ts";
import { jobs, renders } from "../db/schema/renders.ts";
import type { JobKind } from "../../core/protocol/job-kinds.ts";
import { publicRenderState, type RoomRender } from "./state.ts";
import type { RenderRow } from "./store.ts";

/** The state the row holds: as the room shows it once this row is written (a done render is then downloadable). */
function projectedState(render: RoomRender): RenderState {
  return publicRenderState({ ...render, synced: true });
}

/** Every column of the row for `render`. */
function rowOf(render: RoomRender): RenderRow {
  return {
    id: render.id,
    userId: render.userId,
    slug: render.slug,
    filename: render.filename,
    format: render.options.format,
    status: render.status,
    size: render.size,
    lastLine: render.lastLine || null,
    startedAt: render.startedAt,
    doneAt: render.doneAt,
    deletedAt: render.deletedAt ?? null,
    state: JSON.stringify(projectedState(render)),
  };
}

/** A job to queue with a render's row (its render job), in the same batch. */
export interface AdmittedJob {
  kind: JobKind;
  options: unknown;
}

/**
 * Inserts a new render's row only while the user has fewer than `limit` renders in progress (work-caps.ts), and
 * `job` with it: one batch, one round trip, so parallel POSTs on different projects cannot slip past the limit and a
 * start costs its request one trip to D1. Rows still marked rendering but started before `since` are past the
 * wall-clock limit, so they hold no slot; a queued row always holds one (waiting has no bound). The job is queued only when the row was (its INSERT selects from the row).
 * Returns whether the row was inserted; throws D1's UNIQUE error when the file name is taken (renders_file).
 */
export async function insertProjection(db: Db, render: RoomRender, limit: number, since: number, job?: AdmittedJob): Promise<boolean> {
  const row = rowOf(render);
  const insert = rawStatement(db, sql`
    INSERT INTO ${renders} (id, user_id, slug, filename, format, status, size, last_line, started_at, done_at, deleted_at, state)
    SELECT ${row.id}, ${row.userId}, ${row.slug}, ${row.filename}, ${row.format}, ${row.status}, ${row.size}, ${row.lastLine},
           ${row.startedAt}, ${row.doneAt}, ${row.deletedAt}, ${row.state}
    WHERE (SELECT count(*) FROM ${renders}
           WHERE user_id = ${row.userId} AND (status = 'queued' OR (status = 'rendering' AND started_at > ${since}))) < ${limit}`);
  const queue = job
    ? [rawStatement(db, sql`
        INSERT INTO ${jobs} (id, user_id, slug, kind, status, options, attempts, created_at)
        SELECT id, user_id, slug, ${job.kind}, 'queued', ${JSON.stringify(job.options)}, 0, ${Date.now()} FROM ${renders} WHERE id = ${row.id}`)]
    : [];
  const [inserted] = await db.$client.batch([insert, ...queue]);
  return inserted?.meta.changes === 1;
}

/** Whether `err` is D1 refusing a render row because the user already has a file of that name. */
export function isFilenameTaken(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (/UNIQUE constraint failed: renders\.user_id, renders\.filename/.test(e.message)) return true;
  }
  return false;
}

/** Writes the row of `render` as the room holds it now. */
export async function writeProjection(db: Db, render: RoomRender): Promise<void> {
  await projectionQuery(db, render);
}

/** writeProjection as a query that can join a D1 batch. */
export function projectionQuery(db: Db, render: RoomRender) {
  const { id: _id, userId: _userId, ...columns } = rowOf(render);
  return db.update(renders).set(columns).where(eq(renders.id, render.id));
}

/** The user deleted the file of an older render of the project (not the room's latest): no download from now on. */
export async function writeFileDeleted(db: Db, id: string, at: number): Promise<void> {
  await db
    .update(renders)
    .set({ deletedAt: at, state: sql`json_set(${renders.state}, '$.downloadUrl', json('null'))` })
    .where(eq(renders.id, id));
}

/** A stored row's state. A row that does not hold a valid state is a bug to surface, never a guess. */
export function stateOfRow(row: Pick<RenderRow, "id" | "state">): RenderState {
  const parsed = RenderStateSchema.safeParse(JSON.parse(row.state));
  if (!parsed.success) throw new Error(`render ${row.id}: its stored state does not fit the contract: ${parsed.error.message}`);
  return parsed.data;
}
