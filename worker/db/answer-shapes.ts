// What a statement's first() and raw() answer, made from the D1Result of its all() or of a batch (which answer rows
// as objects, with the meta that says which copy of the database served them; first() and raw() carry no meta).
// Rows go back to arrays in column order, as drizzle does with its own batches' results: so, as there, two selected
// columns of the same name keep one value (select them under distinct names).

/** first()'s answer: the first row, or one column of it; null when there is no row. */
export function firstOf(result: D1Result, column?: string): unknown {
  const row = (result.results[0] ?? null) as Record<string, unknown> | null;
  return column === undefined ? row : (row?.[column] ?? null);
}

/** raw()'s answer: the rows as arrays, the column names first when asked for. */
export function rawOf(result: D1Result, options?: { columnNames?: boolean }): unknown[][] {
  const rows = (result.results as Record<string, unknown>[]).map((row) => Object.values(row));
  return options?.columnNames ? [Object.keys(result.results[0] ?? {}), ...rows] : rows;
}
