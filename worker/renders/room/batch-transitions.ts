// A batch as its ProjectRoom keeps it, and its transitions, pure: a row starts, a row's render ends, the rows not
// started are cancelled, the batch ends. The room (batch-run.ts) stores and tells what these return. A batch ends
// `done` only when every row is done; a failed row does not stop the batch (as HyperFrames' `render --batch`
// without --batch-fail-fast), it makes the batch `failed` at its end, with the row's error.
import type { RenderCharge } from "../../budgets/charge.ts";
import type { BatchState, RenderStatus } from "../../../core/protocol/render-state.ts";
import { isInProgress } from "../../../core/protocol/render-state.ts";
import type { RenderOptions } from "../../../core/render/render-options.ts";
import type { RoomRender } from "../state.ts";

type RowStatus = "pending" | RenderStatus;
type BatchStatus = BatchState["status"];

export interface RoomBatchRow {
  index: number;
  name: string | null;
  status: RowStatus;
  renderId: string | null;
  filename: string | null;
  error: string | null;
  /** The row's file was deleted (DELETE /renders/<filename>): no download from now on. */
  deleted?: boolean;
}

export interface RoomBatch {
  id: string;
  userId: string;
  slug: string;
  status: BatchStatus;
  createdAt: number;
  doneAt: number | null;
  /** Every row's render options but `variables` (kept per row under their own storage keys: batch-run.ts). */
  options: RenderOptions;
  rows: RoomBatchRow[];
  /** DELETE .../batch was asked: no row starts any more. */
  cancelled?: boolean;
  /** The accounts each row's render is charged to: the caller who started the batch (worker/budgets/charge.ts). */
  charge?: RenderCharge;
}

export const batchInProgress = (batch: RoomBatch | null): batch is RoomBatch => !!batch && isInProgress(batch.status);

const rowEnded = (row: RoomBatchRow) => row.status !== "pending" && !isInProgress(row.status);

/** The first row not started yet, or null. */
export function nextPendingRow(batch: RoomBatch): number | null {
  if (batch.cancelled) return null;
  return batch.rows.find((row) => row.status === "pending")?.index ?? null;
}

/** The row at `index` took its render (`renderId`, writing `filename`). */
export function rowStarted(batch: RoomBatch, index: number, renderId: string, filename: string): RoomBatch {
  const rows = batch.rows.map((row) => (row.index === index ? { ...row, status: "queued" as const, renderId, filename, error: null } : row));
  return { ...batch, status: "rendering", rows };
}

/** The render of one of the rows ended: the row takes its status, file name and error (a cancelled render has
 * none: its last line says why). Null: not one of the
 * batch's running rows (a plain render, or an end already recorded). */
export function rowRenderEnded(batch: RoomBatch, render: RoomRender): RoomBatch | null {
  const row = batch.rows.find((r) => r.renderId === render.id);
  if (!row || rowEnded(row) || render.phase !== "ended") return null;
  const ended = { ...row, status: render.status, filename: render.filename, error: render.status === "done" ? null : render.error ?? render.lastLine };
  return { ...batch, rows: batch.rows.map((r) => (r.index === row.index ? ended : r)) };
}

/** The row at `index` could not start (`error`): it failed without a render. */
export function rowRefused(batch: RoomBatch, index: number, error: string): RoomBatch {
  return { ...batch, rows: batch.rows.map((row) => (row.index === index ? { ...row, status: "failed" as const, renderId: null, filename: null, error } : row)) };
}

/** DELETE .../batch: every row not started is cancelled, and none starts from now on. */
export function cancelPending(batch: RoomBatch, reason: string): RoomBatch {
  const rows = batch.rows.map((row) => (row.status === "pending" ? { ...row, status: "cancelled" as const, error: reason } : row));
  return { ...batch, cancelled: true, rows };
}

/** The batch ends once no row is pending or running: cancelled when asked, done when every row is done, else failed. */
export function batchEnded(batch: RoomBatch, now: number): RoomBatch | null {
  if (!batch.rows.every(rowEnded)) return null;
  const status: BatchStatus = batch.cancelled ? "cancelled" : batch.rows.every((row) => row.status === "done") ? "done" : "failed";
  return { ...batch, status, doneAt: now };
}

/** The public state (core/protocol/render-state.ts BatchStateSchema). A running row shows its render's live status
 * and file name (`current`: the room's render). */
export function publicBatchState(batch: RoomBatch, current: RoomRender | null): BatchState {
  const rows = batch.rows.map((row) => {
    const live = current && row.renderId === current.id && !rowEnded(row) ? current : null;
    const status = live ? live.status : row.status;
    const filename = live ? live.filename : row.filename;
    const downloadable = status === "done" && !row.deleted && filename !== null;
    return { index: row.index, name: row.name, status, renderId: row.renderId, filename, downloadUrl: downloadable ? `/renders/${filename}` : null, error: row.error };
  });
  const started = rows.some((row) => row.status !== "pending" && row.status !== "queued");
  const status = isInProgress(batch.status) ? (started ? "rendering" : "queued") : batch.status;
  return { id: batch.id, slug: batch.slug, status, createdAt: batch.createdAt, doneAt: batch.doneAt, rows, ...(batch.options.metadata ? { metadata: batch.options.metadata } : {}) };
}
