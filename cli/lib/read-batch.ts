// `studio render SLUG --batch rows.json`: the rows file as HyperFrames' `render --batch` takes it (a JSON array of
// rows, or an object with a `rows` array) where a row is either `{ "variables": {...}, "name"?: "..." }` (the API's
// row) or, as in HyperFrames, the variables object itself. Checked here with the API's own rules
// (core/render/batch-request.ts), so a bad row is a usage error naming it before anything is sent.
import { readFileSync, statSync } from "node:fs";
import { parseBatchRequest, type BatchRequest } from "../../core/render/batch-request.ts";

export class BatchFileError extends Error {}

/** The API takes at most 1 MiB of JSON; a larger file is refused unread. */
const MAX_FILE_BYTES = 1024 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);

/** A row in the API's form, or a HyperFrames row (all its keys are variables). */
function apiRow(row: unknown): unknown {
  if (!isObject(row)) return row;
  const keys = Object.keys(row);
  const apiShaped = isObject(row.variables) && keys.every((key) => key === "variables" || key === "name");
  return apiShaped ? row : { variables: row };
}

/** The batch body for POST .../batch: the rows of `path` with the shared render `options`. */
export function readBatchFile(path: string, options: Record<string, unknown>): BatchRequest & { body: Record<string, unknown> } {
  let text: string;
  try {
    if (statSync(path).size > MAX_FILE_BYTES) throw new BatchFileError(`--batch ${path}: over ${MAX_FILE_BYTES} bytes`);
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof BatchFileError) throw error;
    throw new BatchFileError(`--batch ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BatchFileError(`--batch ${path} is not JSON: ${(error as Error).message}`);
  }
  const rows = Array.isArray(value) ? value : isObject(value) ? value.rows : undefined;
  if (!Array.isArray(rows)) throw new BatchFileError(`--batch ${path}: give a JSON array of rows, or an object with a "rows" array`);
  const body = { ...options, rows: rows.map(apiRow) };
  const parsed = parseBatchRequest(body);
  if (!parsed.ok) throw new BatchFileError(`--batch ${path}: ${parsed.error}`);
  return { ...parsed.request, body };
}
