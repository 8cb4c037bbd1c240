// Follows a batch until it ends, saying each row's change as it happens (reading GET .../batch once a second: a
// batch lasts as long as its rows, and a missed poll only delays a line). Every answer is read with the batch
// contract's schema (core/protocol/render-state.ts).
import { BatchStateSchema, isInProgress, type BatchState } from "../../core/protocol/render-state.ts";
import type { Client } from "./client.ts";

const POLL_MS = 1000;

export function rowLine(row: BatchState["rows"][number]): string {
  const label = `row ${row.index}${row.name ? ` (${row.name})` : ""}`;
  return `${label}: ${row.status}${row.filename ? ` ${row.filename}` : ""}${row.error ? `: ${row.error}` : ""}`;
}

export async function followBatch(client: Client, slug: string, batchId: string, onRow: (line: string) => void): Promise<BatchState> {
  const said = new Map<number, string>();
  for (;;) {
    const state = await client.read(BatchStateSchema, "GET", `/api/projects/${slug}/batch`);
    if (state.id !== batchId) throw new Error(`the project's batch is now ${state.id}, not ${batchId}`);
    for (const row of state.rows) {
      if (row.status === "pending" || said.get(row.index) === row.status) continue;
      said.set(row.index, row.status);
      onRow(rowLine(row));
    }
    if (!isInProgress(state.status)) return state;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
