// Deletes in bounded batches: each statement deletes at most `batchRows` rows (a rowid subquery with a LIMIT: D1's
// SQLite has no DELETE ... LIMIT), and the loop stops when a table is done or the run's budget of time and statements
// is spent, leaving the rest to the next run. So no statement holds D1's single writer for long, however many rows a
// quiet month left behind, and one housekeeping run ends within its budget.
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client.ts";

/** What one housekeeping run may spend; shared by every table it prunes, and used up as it goes. */
export interface DeleteBudget {
  /** Most rows one statement deletes. */
  readonly batchRows: number;
  /** No statement starts after this time (ms since the epoch). */
  readonly deadline: number;
  /** Statements left to run. */
  statementsLeft: number;
}

/** A run's budget: `batchRows` rows a statement, at most `statements` statements, for at most `ms` from `now`. */
export function deleteBudget(o: { batchRows: number; statements: number; ms: number }, now = Date.now()): DeleteBudget {
  return { batchRows: o.batchRows, deadline: now + o.ms, statementsLeft: o.statements };
}

/** What a batched delete did: rows deleted, and whether matching rows were left for the next run. */
export interface Deleted {
  rows: number;
  more: boolean;
}

/** Deletes the rows of `table` matching `where`, batch by batch, within `budget`. */
export async function deleteInBatches(db: Db, table: SQLiteTable, where: SQL, budget: DeleteBudget): Promise<Deleted> {
  let rows = 0;
  for (;;) {
    if (budget.statementsLeft <= 0 || Date.now() >= budget.deadline) return { rows, more: true };
    budget.statementsLeft--;
    const result = await db.delete(table).where(sql`rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT ${budget.batchRows})`).run();
    const changes = result.meta.changes ?? 0;
    rows += changes;
    // A short batch is the last one: nothing more matched when it ran.
    if (changes < budget.batchRows) return { rows, more: false };
  }
}
