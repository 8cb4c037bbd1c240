// Which batch state the page shows. States come from three places (the project's stream, the page's POST answer and
// its DELETE answer) and may cross: a POST answer (first row queued) can arrive after the stream already said the row
// is rendering. Pure.
import { isInProgress, type BatchState } from "../../../core/protocol/render-state.ts";

export type { BatchState };

const ROW_RANK: Record<string, number> = { pending: 0, queued: 1, rendering: 2 };

/** How far a batch has got: rows started and ended, and the batch ended after all of them. */
function rank(batch: BatchState): number {
  const rows = batch.rows.reduce((sum, row) => sum + (ROW_RANK[row.status] ?? 3), 0);
  return rows + (isInProgress(batch.status) ? 0 : 1_000_000);
}

/** The state to show: a new batch replaces the old; the same batch never goes back to an earlier state. */
export function laterBatch(current: BatchState | null, next: BatchState): BatchState {
  if (!current || current.id !== next.id) return next;
  return rank(next) >= rank(current) ? next : current;
}

export const batchRunning = (batch: BatchState | null): boolean => !!batch && isInProgress(batch.status);
