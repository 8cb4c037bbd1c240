// Batch: one render, and one file, per row of variables, with the render form's options (POST …/batch); its
// progress comes live on the project's stream (`batch` events, lib/use-project-events.ts), like renders; cancel.
import { useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { BATCH_LIMITS, batchBody, emptyRow, EXAMPLE_JSON, rowsFromJson, rowsFromTable, type TableRow } from "../lib/batch-rows.ts";
import { batchRunning, type BatchState } from "../lib/batch-view.ts";
import type { FormOptions } from "../lib/render-request.ts";
import type { BatchStopped, FileEntry } from "../lib/types.ts";
import { useAction } from "../lib/use-action.ts";
import { useDeclaredVariables } from "../lib/use-declared-variables.ts";
import { BatchRowsEditor, usesTable } from "./batch-rows-editor.tsx";
import { BatchStatus } from "./batch-status.tsx";
import { ErrorNote } from "./error-note.tsx";

interface Props {
  slug: string;
  files: FileEntry[];
  options: FormOptions;
  batch: BatchState | null;
  onBatch: (state: BatchState) => void;
}

export function BatchPanel({ slug, files, options, batch, onBatch }: Props) {
  const declared = useDeclaredVariables(slug, options.composition, files);
  const [table, setTable] = useState<TableRow[]>([emptyRow(), emptyRow()]);
  const [json, setJson] = useState(EXAMPLE_JSON);
  const { busy, error, setError, run } = useAction();
  const base = `/api/projects/${encodeURIComponent(slug)}/batch`;
  const running = batchRunning(batch);

  async function start(event: Event) {
    event.preventDefault();
    let rows: unknown;
    if (usesTable(declared)) rows = rowsFromTable(declared.declarations ?? [], table);
    else {
      const read = rowsFromJson(json);
      if (!read.ok) return setError(read.error);
      rows = read.rows;
    }
    await run(async () => onBatch(await api<BatchState>(base, { method: "POST", json: batchBody(options, rows) })));
  }

  async function cancel() {
    setError(null);
    try {
      const answer = await api<BatchStopped>(base, { method: "DELETE" });
      if (answer.batch) onBatch(answer.batch);
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <section class="panel" aria-labelledby="batch-title">
      <h2 id="batch-title">Batch</h2>
      <p class="muted">
        One render, and one file, per row of variables, one after another, with the options above; up to {BATCH_LIMITS.rows} rows.
      </p>
      <form class="batch-form" onSubmit={start} noValidate>
        <BatchRowsEditor declared={declared} table={table} setTable={setTable} json={json} setJson={setJson} />
        <div class="row">
          <button type="submit" disabled={busy || running || declared.declarations === null && !declared.error}>
            {busy ? "Starting…" : running ? "Batch running…" : "Start batch"}
          </button>
          {running && (
            <button type="button" class="danger" onClick={cancel}>
              Cancel batch
            </button>
          )}
        </div>
      </form>
      <ErrorNote message={error} />
      {batch && <BatchStatus batch={batch} />}
    </section>
  );
}
