// The body of POST /api/projects/:slug/batch: the render options every row shares (a render's, without `wait` and
// `variables`) and 1..BATCH_LIMITS.rows rows, each `{ variables?, name? }` (HyperFrames' `render --batch` takes one
// variables object per row; here a row names its variables so a row can carry a name beside them). Pure: the
// Worker validates with it, the CLI checks a rows file with it before any request. Every error names the row.
import * as z from "zod";
import { lazy } from "../lazy.ts";
import { parseRenderOptions, renderOptionsSchema, type RenderOptions } from "./render-options.ts";
import { variablesShapeProblem } from "./render-variables.ts";

export const BATCH_LIMITS = { rows: 100, nameLength: 40 } as const;

/** A row's name goes into its file name (`<slug>-<name>_<date>_<time>.<ext>`), so it is a slug-like word. */
const ROW_NAME = new RegExp(`^[a-z0-9][a-z0-9-]{0,${BATCH_LIMITS.nameLength - 1}}$`);
const nameRule = `lowercase letters, digits and "-", 1 to ${BATCH_LIMITS.nameLength} characters, starting with a letter or digit`;

export interface BatchRow {
  /** Null: the row's index names its file. */
  name: string | null;
  variables: Record<string, unknown>;
}

export interface BatchRequest {
  options: RenderOptions;
  rows: BatchRow[];
}

// The render options' schema split into what a batch shares and a row's variables; built on first use (core/lazy.ts)
// as the schemas below are, so the Worker's startup builds none of them.
const renderParts = lazy(() => {
  // A batch's rows are never answered from the render cache (each row renders), so `force` is not a batch option.
  const { wait: _wait, variables, force: _force, ...shared } = renderOptionsSchema().shape;
  return { variables, shared, sharedKeys: Object.keys(shared) };
});

/** The row as the OpenAPI document shows it (parseBatchRequest below is what checks it). */
export const batchRowSchema = lazy(() =>
  z.strictObject({
    variables: renderParts().variables.describe("this row's variables, with the same rules and limits as a render's `variables`; absent: the composition's defaults"),
    name: z.string().regex(ROW_NAME).optional().describe(`names the row's file: <slug>-<name>_<date>_<time>.<ext> (else its index); ${nameRule}; unique in the batch`),
  }),
);

/** The body as the OpenAPI document shows it. */
export const batchRequestSchema = lazy(() =>
  z.strictObject({
    ...renderParts().shared,
    rows: z.array(batchRowSchema()).min(1).max(BATCH_LIMITS.rows).describe(`1 to ${BATCH_LIMITS.rows} rows: one render, and one file, per row, one after another`),
  }),
);

/**
 * The body as POST .../batch declares it, to read it and to document it: parseBatchRequest checks it first, so a
 * refusal is its message naming the row (its issue marked `wholeMessage`: the message is the whole answer); what it
 * passed, batchRequestSchema (what the document shows) reads into the request.
 */
export const batchRequestBody = lazy(() =>
  z
    .preprocess((input, ctx) => {
      const parsed = parseBatchRequest(input);
      if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error, input, params: { wholeMessage: true } });
      return input;
    }, batchRequestSchema())
    .transform(({ rows, ...shared }): BatchRequest => ({
      options: { ...shared, wait: false },
      rows: rows.map((row) => ({ name: row.name ?? null, variables: row.variables ?? {} })),
    })),
);

export type BatchResult = { ok: true; request: BatchRequest } | { ok: false; error: string };

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);
const fail = (error: string): BatchResult => ({ ok: false, error });

export function parseBatchRequest(input: unknown): BatchResult {
  if (!isObject(input)) return fail('a batch must be a JSON object: { "rows": [{ "variables": {...}, "name"?: "..." }], ...render options }');
  const { rows, ...rest } = input;
  if ("wait" in rest) return fail("invalid wait: a batch never holds the request; follow it with GET .../batch or the project's event stream");
  if ("variables" in rest) return fail("invalid variables: a batch takes its variables per row, as rows[i].variables");
  const { sharedKeys } = renderParts();
  const unknown = Object.keys(rest).find((key) => !sharedKeys.includes(key));
  if (unknown !== undefined) return fail(`unknown batch option ${unknown.slice(0, 60)}; allowed options: rows, ${sharedKeys.join(", ")}`);
  if (!Array.isArray(rows)) return fail(`invalid rows: give an array of 1 to ${BATCH_LIMITS.rows} rows, each { "variables": {...}, "name"?: "..." }`);
  if (rows.length < 1 || rows.length > BATCH_LIMITS.rows) return fail(`invalid rows: ${rows.length} rows; give 1 to ${BATCH_LIMITS.rows}`);
  const parsed = parseRenderOptions(rest);
  if (!parsed.ok) return parsed;
  const out: BatchRow[] = [];
  const names = new Map<string, number>();
  for (const [index, row] of rows.entries()) {
    const at = `rows[${index}]`;
    if (!isObject(row)) return fail(`invalid ${at}: give an object { "variables": {...}, "name"?: "..." }`);
    const extra = Object.keys(row).find((key) => key !== "variables" && key !== "name");
    if (extra !== undefined) return fail(`invalid ${at}: unknown key ${extra.slice(0, 60)}; a row has variables and name`);
    const { variables = {}, name = null } = row;
    const problem = variablesShapeProblem(variables);
    if (problem) return fail(`invalid ${at}.variables: ${problem}`);
    if (name !== null && (typeof name !== "string" || !ROW_NAME.test(name))) return fail(`invalid ${at}.name: ${JSON.stringify(name).slice(0, 60)}; ${nameRule}`);
    if (name !== null) {
      const earlier = names.get(name);
      if (earlier !== undefined) return fail(`invalid ${at}.name: "${name}" is also the name of rows[${earlier}]; names are unique in a batch`);
      names.set(name, index);
    }
    out.push({ name, variables: variables as Record<string, unknown> });
  }
  return { ok: true, request: { options: parsed.options, rows: out } };
}

/** The word a row's file is named by: its name, else its index (HyperFrames' default `{index}`, from 0). */
export function rowLabel(row: Pick<BatchRow, "name">, index: number): string {
  return row.name ?? String(index);
}
