// The projector: every D1 row a render's life writes, as projections of the ProjectRoom's state (the room is the only
// caller, performing the effects of room/render-transitions.ts). The render's row keeps the columns lists and
// limits query (status, size, times, deletion) and the render's public state as the contract shapes it
// (core/protocol/render-state.ts, built by publicRenderState), so every reader of a render that is not the room's
// live one (GET /api/renders/:id, the project summaries) reads the very state the room showed. The render's work rows
// in the jobs queue (its render job, segments and join) are written here too, through the queue's own statements
// (farm/queue.ts); nodes change them only by claiming, renewing and reporting.
import { eq, sql } from "drizzle-orm";
import { RenderStateSchema, type RenderState } from "../../core/protocol/render-state.ts";
import { openDb, type Db } from "../db/client.ts";
import { rawStatement } from "../db/raw-statement.ts";
import { jobs, renders } from "../db/schema/renders.ts";
import type { JobKind } from "../../core/protocol/job-kinds.ts";
import { publicRenderState, joinJobId, segmentJobId, NO_POSTER_BEFORE, type EndedRender, type RoomRender } from "./state.ts";
import { freeRenderFilename, type RenderRow } from "./store.ts";
import type { Env } from "../env.ts";
import { endJob, endJobsQuery, enqueueJob, releaseHeldJob, requeueLapsedJob } from "./farm/queue.ts";
import type { QueuedJob } from "./room/render-step.ts";
import { bumpCounterQuery } from "../stats/counters.ts";
import { segmentKey } from "./segment-keys.ts";
import { deleteRenderFile } from "../projects/files/delete-files.ts";
import { reservationOf, type BudgetRefused } from "../budgets/charge.ts";
import { budgetRefusal, chargeStatements, settleStatements } from "../budgets/charge-statements.ts";

/** The state the row holds: as the room shows it once this row is written (a done render is then downloadable). */
function projectedState(render: RoomRender): RenderState {
  return publicRenderState(render.phase === "ended" ? { ...render, synced: true } : render);
}

/** Every column of the row for `render`. */
function rowOf(render: RoomRender): RenderRow {
  const state = projectedState(render);
  return {
    id: render.id,
    userId: render.userId,
    slug: render.slug,
    filename: render.filename,
    format: render.options.format,
    status: render.status,
    size: state.size,
    lastLine: render.lastLine || null,
    startedAt: render.startedAt,
    doneAt: state.doneAt,
    deletedAt: render.phase === "ended" ? render.deletedAt : null,
    state: JSON.stringify(state),
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
 * A render that carries a charge has its budgets checked first in the same batch (a budget that refuses it fails
 * the whole batch: nothing is written) and its reservation written after the row (worker/budgets/charge-statements.ts).
 * Returns whether the row was inserted; throws D1's UNIQUE error when the file name is taken (renders_file).
 */
export async function insertProjection(db: Db, render: RoomRender, limit: number, since: number, job?: AdmittedJob, now = Date.now()): Promise<boolean> {
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
  const charged = render.charge ? chargeStatements(db, row.id, row.userId, render.charge, reservationOf(render.quote), now) : [];
  const guards = charged.length ? render.charge!.accounts.length : 0;
  const results = await db.$client.batch([...charged.slice(0, guards), insert, ...queue, ...charged.slice(guards)]);
  return results[guards]?.meta.changes === 1;
}

/** What an admission came to: the render as admitted, the user's cap reached, or a budget that refused it. */
export type Admitted<R> = { admitted: R } | { atCap: true } | { overBudget: BudgetRefused };

/**
 * The render's D1 row admitted under the user's cap and its budgets with `job` (one round trip, insertProjection);
 * the render as admitted, its file name moved on a second when another render of the user took it in the same
 * second (then its name is looked up first: a trip more, only then). `staleBefore`: rendering rows started before
 * it are past the wall-clock limit and hold no slot. A budget's refusal reads its figures for the answer (a trip
 * more, only then).
 */
export async function admitRender<R extends RoomRender>(db: Db, render: R, limit: number, staleBefore: number, job: AdmittedJob | undefined, now = Date.now()): Promise<Admitted<R>> {
  const admit = (named: R): Promise<Admitted<R>> =>
    insertProjection(db, named, limit, staleBefore, job, now).then((inserted) => (inserted ? { admitted: named } : { atCap: true }));
  try {
    try {
      return await admit(render);
    } catch (err) {
      if (!isFilenameTaken(err)) throw err;
      return await admit({ ...render, filename: await freeRenderFilename(db, render.userId, render.filename) });
    }
  } catch (err) {
    const refused = render.charge ? await budgetRefusal(db, render.charge, reservationOf(render.quote), now, err) : null;
    if (refused) return { overBudget: refused };
    throw err;
  }
}

/** Whether `err` is D1 refusing a render row because the user already has a file of that name. */
export function isFilenameTaken(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (/UNIQUE constraint failed: renders\.user_id, renders\.filename/.test(e.message)) return true;
  }
  return false;
}

/**
 * A reused render's row (room/reuse-render.ts): inserted ended and done, so its download is offered at once, with the
 * completed renders' counter: one batch, the request's one round trip to D1. No job and no charge: no node renders
 * it, so it holds no slot of the user's cap and uses no render-seconds. Throws D1's UNIQUE error (isFilenameTaken)
 * when another render of the user took its file name.
 */
export async function insertReusedRender(db: Db, render: EndedRender): Promise<void> {
  await db.$client.batch([rawStatement(db, db.insert(renders).values(rowOf(render))), rawStatement(db, bumpCounterQuery(db, "rendersCompleted"))]);
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

/** The work jobs of a render: its render job, and while split (or ended split) its segment jobs and join. */
export function jobIdsOf(render: RoomRender): string[] {
  const segments = render.phase === "split" || render.phase === "ended" ? render.segments : null;
  if (!segments) return [render.id];
  return [render.id, ...segments.map((s) => segmentJobId(render.id, s.index)), joinJobId(render.id)];
}

/**
 * The D1 and R2 side of a render's end: every job of the render still queued or running ends with the same outcome
 * (their nodes learn it at their next post), and the history row is written with them in one batch (one round trip,
 * all or nothing), so GET /api/renders lists the file only once everything else agrees. A split render's segment
 * files go first: the render has ended in the room already, so a node still holding one of its jobs is told to stop
 * at its next post whatever it reads. So does what a node uploaded for a render that is not done (its file, poster and
 * manifest, counted in the owner's storage): only a done render offers them to download or delete. Idempotent: the
 * room's alarm calls it again until it succeeds.
 */
export async function writeEndedRender(env: Env, render: EndedRender): Promise<void> {
  const db = openDb(env.DB);
  const jobStatus = render.status === "done" ? "done" : render.status === "cancelled" ? "cancelled" : "failed";
  if (render.segments) await env.FILES.delete(render.segments.map((s) => segmentKey(render.userId, render.id, s.index)));
  // `actual`: a node took it, so may have uploaded; a render no node took has nothing to remove.
  if (render.status !== "done" && render.actual) await deleteRenderFile(env, render.userId, render.filename);
  const endJobs = endJobsQuery(db, jobIdsOf(render), jobStatus, render.error ? { error: render.error } : {});
  const row = projectionQuery(db, render);
  // Its reservation replaced by what it used, in the same all-or-nothing batch (a render never taken used nothing).
  const settle = settleStatements(db, render.id, render.actual?.renderSeconds ?? 0);
  const writes = [rawStatement(db, endJobs), rawStatement(db, row), ...settle];
  if (render.status === "done") await db.$client.batch([...writes, rawStatement(db, bumpCounterQuery(db, "rendersCompleted"))]);
  else await db.$client.batch(writes);
}

/** Queues a split render's segment jobs or its join. */
export async function queueRenderJobs(db: Db, render: RoomRender, queued: readonly QueuedJob[]): Promise<void> {
  for (const job of queued) await enqueueJob(db, { id: job.id, userId: render.userId, slug: render.slug, kind: job.kind, options: job.options });
}

/** A render job's work is done (the plan of a render that goes on split, a segment). */
export async function endRenderJob(db: Db, jobId: string, result?: unknown): Promise<void> {
  await endJob(db, jobId, "done", result === undefined ? {} : { result });
}

/** Puts a job whose lease lapsed back in the queue; false when it no longer lapsed (someone got there first). */
export function requeueRenderJob(db: Db, jobId: string, nodeId: string | null): Promise<boolean> {
  return requeueLapsedJob(db, jobId, nodeId);
}

/** Puts back the job its holder (that key, that attempt) gives back; false when it no longer holds it running. */
export async function releaseRenderJob(db: Db, jobId: string, holder: { nodeId: string; attempt: number }, why: string): Promise<boolean> {
  return (await releaseHeldJob(db, jobId, holder, `given back: ${why}`.slice(0, 300))) !== null;
}

/** The user deleted the file of an older render of the project (not the room's latest): no download from now on. */
export async function writeFileDeleted(db: Db, id: string, at: number): Promise<void> {
  await db
    .update(renders)
    .set({ deletedAt: at, state: sql`json_set(${renders.state}, '$.downloadUrl', json('null'), '$.posterUrl', json('null'))` })
    .where(eq(renders.id, id));
}

/** A state written before posters: no poster, and for a done render, why (state.ts NO_POSTER_BEFORE). */
function withPosterFields(state: unknown): unknown {
  if (typeof state !== "object" || state === null || "posterUrl" in state) return state;
  const done = (state as { status?: unknown }).status === "done";
  return { ...state, posterUrl: null, posterError: done ? NO_POSTER_BEFORE : null };
}

/** A stored row's state. A row that does not hold a valid state is a bug to surface, never a guess. */
export function stateOfRow(row: Pick<RenderRow, "id" | "state">): RenderState {
  const parsed = RenderStateSchema.safeParse(withPosterFields(JSON.parse(row.state)));
  if (!parsed.success) throw new Error(`render ${row.id}: its stored state does not fit the contract: ${parsed.error.message}`);
  return parsed.data;
}
