// The rows of a batch as the person gives them: a table with one column per variable the composition declares, or
// JSON (rows as POST …/batch takes them). Pure. Cells become typed values by their declaration (a number column
// sends numbers) and the rest goes to the API as typed: core/render/batch-request.ts is the one judge of a row, and
// its message, naming the row, is what the person reads.
import type { VariableDeclaration } from "../../../core/composition/read-variable-declarations.ts";
import { BATCH_LIMITS } from "../../../core/render/batch-request.ts";
import { requestBody, type FormOptions } from "./render-request.ts";

export { BATCH_LIMITS };

export interface TableRow {
  name: string;
  /** Cell text by variable id; an empty cell leaves the declared default. */
  values: Record<string, string>;
}

export const emptyRow = (): TableRow => ({ name: "", values: {} });

export const EXAMPLE_JSON = `[
  { "name": "first", "variables": {} },
  { "name": "second", "variables": {} }
]`;

/** A cell's value for the API: numbers and booleans typed when they read as one, else the text as typed. */
export function cellValue(text: string, declaration: Pick<VariableDeclaration, "type">): unknown {
  if (declaration.type === "number" && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text.trim());
  if (declaration.type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** The table as POST …/batch rows: a row's filled cells are its variables; an empty name is left out (its index names its file). */
export function rowsFromTable(columns: Pick<VariableDeclaration, "id" | "type">[], rows: TableRow[]): unknown[] {
  return rows.map((row) => {
    const variables: Record<string, unknown> = {};
    for (const column of columns) {
      const text = row.values[column.id] ?? "";
      if (text !== "") variables[column.id] = cellValue(text, column);
    }
    const name = row.name.trim();
    return name ? { name, variables } : { variables };
  });
}

/** JSON rows as typed, or why they are not JSON (the only thing judged here: the API reads the rest). */
export function rowsFromJson(text: string): { ok: true; rows: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, rows: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `the rows are not JSON: ${(error as Error).message}` };
  }
}

/** The body of POST …/batch: the render form's options (every row shares them) and the rows. */
export function batchBody(options: FormOptions, rows: unknown): Record<string, unknown> {
  return { ...requestBody(options), rows };
}
