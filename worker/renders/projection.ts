// The D1 render row is a projection of the ProjectRoom's state: the room (worker/renders/room/project-room.ts) is the only
// caller of these functions, at each transition. The row keeps the columns lists and limits query (status, size,
// times, deletion) and the render's public state as the contract shapes it (core/protocol/render-state.ts, built by
// publicRenderState), so every reader of a render that is not the room's live one, GET /api/renders/:id and the
// project summaries, reads the very state the room showed, never one rebuilt from columns and guesses.
import { eq, sql } from "drizzle-orm";
import { RenderStateSchema, type RenderState } from "../../core/protocol/render-state.ts";
import type { Db } from "../db/client.ts";
import { renders } from "../db/schema/renders.ts";
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

/**
 * Inserts a new render's row only while the user has fewer than `limit` renders in progress (work-caps.ts). Rows
 * still marked in progress but started before `since` are past the wall-clock limit, so they hold no slot. One
 * statement, so parallel POSTs on different projects cannot slip past the limit. Returns whether it was inserted.
 */
export async function insertProjection(db: Db, render: RoomRender, limit: number, since: number): Promise<boolean> {
  const row = rowOf(render);
  const result = await db.run(sql`
    INSERT INTO ${renders} (id, user_id, slug, filename, format, status, size, last_line, started_at, done_at, deleted_at, state)
    SELECT ${row.id}, ${row.userId}, ${row.slug}, ${row.filename}, ${row.format}, ${row.status}, ${row.size}, ${row.lastLine},
           ${row.startedAt}, ${row.doneAt}, ${row.deletedAt}, ${row.state}
    WHERE (SELECT count(*) FROM ${renders}
           WHERE user_id = ${row.userId} AND status IN ('queued', 'rendering') AND started_at > ${since}) < ${limit}`);
  return result.meta.changes === 1;
}

/** Writes the row of `render` as the room holds it now. */
export async function writeProjection(db: Db, render: RoomRender): Promise<void> {
  const { id: _id, userId: _userId, ...columns } = rowOf(render);
  await db.update(renders).set(columns).where(eq(renders.id, render.id));
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
