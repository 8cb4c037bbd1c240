// A parity case's render options (bench/parity-corpus/<case>/parity.json), given alike to both renderers: the
// output format, render-time variables, or batch rows (one render per row); and the differences from HyperFrames the
// case expects (parity-expected.ts). Read once here so bench/parity.ts and the reference wrapper never see a
// half-checked file: an unknown key or a wrong type fails the case loudly instead of rendering with defaults. Pure
// (the caller reads the file).
import { parseExpected, type ExpectedDifference } from "./parity-expected.ts";

/** Formats the harness compares; webm and mov keep the alpha plane, so their alpha is compared too. */
export const CASE_FORMATS = ["mp4", "webm", "mov"] as const;
export type CaseFormat = (typeof CASE_FORMATS)[number];

export interface CaseOptions {
  format: CaseFormat;
  /**
   * One entry per render to compare: `[undefined]` for a plain case, `[variables]` for render-time variables,
   * one per row for a batch (`batch: true`).
   */
  runs: (Record<string, unknown> | undefined)[];
  /** True when the rows go to HyperFrames as one `--batch` file (and to ours one renderProject per row). */
  batch: boolean;
  /** Documented differences from HyperFrames this case expects (for each of its runs), with their reasons. */
  expected: ExpectedDifference[];
}

/** At most this many batch rows: each is a full render on both sides. */
export const MAX_BATCH_ROWS = 4;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The options of a case from its parity.json text; null text (no file) is a plain mp4 case. */
export function parseCaseOptions(text: string | null, source = "parity.json"): CaseOptions {
  if (text === null) return { format: "mp4", runs: [undefined], batch: false, expected: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isRecord(raw)) throw new Error(`${source}: give an object such as {"format":"webm","variables":{...}}`);
  const unknown = Object.keys(raw).filter((k) => !["format", "variables", "batch", "expected"].includes(k));
  if (unknown.length) throw new Error(`${source}: unknown key ${unknown.join(", ")} (format, variables, batch, expected)`);
  const expected = parseExpected(raw.expected, source);
  const format = raw.format ?? "mp4";
  if (!CASE_FORMATS.includes(format as CaseFormat)) throw new Error(`${source}: format is one of ${CASE_FORMATS.join(", ")} (got ${JSON.stringify(format)})`);
  if (raw.variables !== undefined && raw.batch !== undefined) throw new Error(`${source}: give variables or batch, not both (HyperFrames refuses both)`);
  if (raw.variables !== undefined) {
    if (!isRecord(raw.variables)) throw new Error(`${source}: variables is an object of values`);
    return { format: format as CaseFormat, runs: [raw.variables], batch: false, expected };
  }
  if (raw.batch !== undefined) {
    const rows = raw.batch;
    if (!Array.isArray(rows) || rows.length === 0 || rows.length > MAX_BATCH_ROWS) {
      throw new Error(`${source}: batch is an array of 1 to ${MAX_BATCH_ROWS} rows`);
    }
    rows.forEach((row, k) => {
      if (!isRecord(row)) throw new Error(`${source}: batch row ${k} is not an object of variable values`);
    });
    return { format: format as CaseFormat, runs: rows as Record<string, unknown>[], batch: true, expected };
  }
  return { format: format as CaseFormat, runs: [undefined], batch: false, expected };
}

/** Whether the format carries an alpha plane worth comparing. */
export const hasAlpha = (format: CaseFormat): boolean => format === "webm" || format === "mov";
