// A batch as the project's stream last told it: its status and, per row, status, file or error, and the download.
import type { BatchState } from "../lib/batch-view.ts";
import { StatusBadge } from "./status-badge.tsx";

export function BatchStatus({ batch }: { batch: BatchState }) {
  const ended = batch.rows.filter((row) => row.status === "done" || row.status === "failed" || row.status === "cancelled").length;
  return (
    <div class="render-status" data-testid="batch-status" data-status={batch.status}>
      <div class="row wrap">
        <StatusBadge status={batch.status} />
        <span role="status" aria-live="polite">
          {ended} of {batch.rows.length} rows ended
        </span>
      </div>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">File</th>
            </tr>
          </thead>
          <tbody>
            {batch.rows.map((row) => (
              <tr key={row.index} data-testid="batch-row" data-status={row.status}>
                <td>{row.index}</td>
                <td>{row.name ?? <span class="muted">—</span>}</td>
                <td>
                  <StatusBadge status={row.status} />
                </td>
                <td>
                  {row.downloadUrl ? (
                    <a class="button small" href={`${row.downloadUrl}?download`} download={row.filename ?? undefined} aria-label={`Download row ${row.index} (${row.filename})`}>
                      Download
                    </a>
                  ) : (
                    <span class="muted">{row.filename ?? ""}</span>
                  )}
                  {row.error && (
                    <p class="error-text" data-testid="batch-row-error">
                      {row.error}
                    </p>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
