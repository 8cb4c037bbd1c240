// A batch's rows as a table: a name and one cell per variable the composition declares (empty: its default).
import type { VariableDeclaration } from "../../../core/composition/read-variable-declarations.ts";
import { BATCH_LIMITS, emptyRow, type TableRow } from "../lib/batch-rows.ts";

interface Props {
  columns: VariableDeclaration[];
  rows: TableRow[];
  setRows: (rows: TableRow[]) => void;
}

/** What an empty cell falls back to, as a placeholder. */
function placeholderOf(column: VariableDeclaration): string {
  if (!column.hasDefault) return column.type ?? "";
  return typeof column.default === "string" ? column.default : JSON.stringify(column.default);
}

export function BatchRowsTable({ columns, rows, setRows }: Props) {
  const update = (index: number, change: (row: TableRow) => TableRow) => setRows(rows.map((row, i) => (i === index ? change(row) : row)));
  return (
    <div class="table-wrap">
      <table data-testid="batch-rows">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Name</th>
            {columns.map((c) => (
              <th key={c.id} scope="col">
                {c.id} {c.type && <span class="muted">({c.type})</span>}
              </th>
            ))}
            <th scope="col">
              <span class="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              <td>{index}</td>
              <td>
                <input aria-label={`Row ${index} name`} placeholder={String(index)} value={row.name} onInput={(e) => update(index, (r) => ({ ...r, name: e.currentTarget.value }))} />
              </td>
              {columns.map((c) => (
                <td key={c.id}>
                  <input
                    aria-label={`Row ${index} ${c.id}`}
                    placeholder={placeholderOf(c)}
                    value={row.values[c.id] ?? ""}
                    onInput={(e) => {
                      const text = e.currentTarget.value;
                      update(index, (r) => ({ ...r, values: { ...r.values, [c.id]: text } }));
                    }}
                  />
                </td>
              ))}
              <td>
                <button type="button" class="small ghost danger" aria-label={`Remove row ${index}`} disabled={rows.length === 1} onClick={() => setRows(rows.filter((_, i) => i !== index))}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" class="small ghost" disabled={rows.length >= BATCH_LIMITS.rows} onClick={() => setRows([...rows, emptyRow()])}>
        Add a row
      </button>
    </div>
  );
}
