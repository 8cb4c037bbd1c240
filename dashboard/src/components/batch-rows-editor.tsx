// Where the rows of a batch are written: a table with the declared variables as columns when the composition
// declares some, otherwise JSON as POST …/batch takes it.
import type { Declared } from "../lib/use-declared-variables.ts";
import { BATCH_LIMITS, type TableRow } from "../lib/batch-rows.ts";
import { BatchRowsTable } from "./batch-rows-table.tsx";
import { ErrorNote } from "./error-note.tsx";

interface Props {
  declared: Declared;
  table: TableRow[];
  setTable: (rows: TableRow[]) => void;
  json: string;
  setJson: (text: string) => void;
}

/** Whether the rows are written in the table (else JSON): when the composition declares variables. */
export const usesTable = (declared: Declared): boolean => (declared.declarations?.length ?? 0) > 0;

export function BatchRowsEditor({ declared, table, setTable, json, setJson }: Props) {
  if (declared.declarations === null && !declared.error) return <p class="muted">Reading the composition's variables…</p>;
  return (
    <>
      <ErrorNote message={declared.error} />
      {usesTable(declared) ? (
        <BatchRowsTable columns={declared.declarations ?? []} rows={table} setRows={setTable} />
      ) : (
        <div class="field">
          <label for="batch-json">Rows (JSON)</label>
          <textarea id="batch-json" rows={8} spellcheck={false} aria-describedby="batch-json-hint" value={json} onInput={(e) => setJson(e.currentTarget.value)} />
          <small id="batch-json-hint" class="muted">
            An array of 1 to {BATCH_LIMITS.rows} rows, each {'{ "variables": {…}, "name"?: "…" }'}; the composition declares no variables, so any keys are passed as given.
          </small>
        </div>
      )}
    </>
  );
}
