// Reads what a page reported (core/protocol/page-report.ts's schemas) from `unknown`: each value that does not parse
// is a problem naming its field (`info().videos[2].playbackRate`) and what the node does instead, never a silent
// default and never the value passed on. Per field, one of two outcomes, chosen where the field is read:
// - refused: the composition's root facts (id, width, height, duration) and anything that is not a list where a list
//   is due; without them there is nothing sound to render, so the caller fails the render (strict or not);
// - left out: one element of a list (a video, a sound, a finding, a timeline key, a transition, a font family, a
//   measured element), or the elements past a list's bound; the rest of the report is used. An invalid `fps` is
//   left out too (the render's own rate applies). A strict render fails on any of them. Pure.
import type * as z from "zod";
import { makeFinding, type Finding } from "./finding.ts";

/** One value of a page's report that did not parse. */
export interface PageProblem {
  /** The field as the node read it: `info().videos[2].playbackRate`. */
  field: string;
  /** What was wrong, with the value received (shortened). */
  problem: string;
  /** What the node did instead: "the video is left out (it stays blank)". */
  outcome: string;
}

export interface PageRead<T> {
  value: T;
  problems: PageProblem[];
}

/** The finding of a problem: code page-report-invalid, about the composition file, naming field and outcome. */
export function pageReportFinding(file: string, problem: PageProblem): Finding {
  return makeFinding("page-report-invalid", file, `the page reported an invalid ${problem.field}: ${problem.problem}; ${problem.outcome}`, {
    fixHint: "do not replace or wrap window.__studio, the runtime's globals or built-in prototypes: the render node reads only what it can check",
  });
}

/** A value, shown short: page strings can be megabytes and objects cyclic, so nothing is serialised whole. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value) + (value.length > 60 ? ` (${value.length} characters)` : "");
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" || value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const pathText = (path: readonly PropertyKey[]) => path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");

/** The value at `path` inside `root`, read defensively (a getter or proxy must not throw here). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = Object.getOwnPropertyDescriptor(value, key)?.value;
  }
  return value;
}

/** The first issue of a failed parse as a problem under `field`. */
export function problemOf(error: z.ZodError, raw: unknown, field: string, outcome: string): PageProblem {
  const issue = error.issues[0];
  const path = issue?.path ?? [];
  return { field: field + pathText(path), problem: `${issue?.message ?? "is invalid"} (got ${describeValue(valueAt(raw, path))})`, outcome };
}

/** Parses `raw` with `schema`; on failure `fallback` with the problem. */
export function readValue<T>(schema: z.ZodType<T>, raw: unknown, field: string, fallback: T, outcome: string): PageRead<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { value: parsed.data, problems: [] };
  return { value: fallback, problems: [problemOf(parsed.error, raw, field, outcome)] };
}

/**
 * A list read item by item: not an array is the empty list with a problem; items past `max` are cut with one
 * problem; each item that does not parse (or that `accept` refuses) is left out with its own problem.
 */
export function readList<T>(
  item: z.ZodType<T>,
  raw: unknown,
  field: string,
  max: number,
  outcome: string,
  accept?: (value: T, index: number) => string | null,
): PageRead<T[]> {
  if (!Array.isArray(raw)) return { value: [], problems: [{ field, problem: `is not a list (got ${describeValue(raw)})`, outcome: `read as empty: ${outcome}` }] };
  const problems: PageProblem[] = [];
  if (raw.length > max) problems.push({ field, problem: `has ${raw.length} items, at most ${max} are read`, outcome: `the rest are left out: ${outcome}` });
  const value: T[] = [];
  for (let i = 0; i < Math.min(raw.length, max); i++) {
    const at = `${field}[${i}]`;
    const parsed = item.safeParse(raw[i]);
    if (!parsed.success) {
      problems.push(problemOf(parsed.error, raw[i], at, outcome));
      continue;
    }
    const refused = accept?.(parsed.data, i) ?? null;
    if (refused !== null) {
      problems.push({ field: at, problem: refused, outcome });
      continue;
    }
    value.push(parsed.data);
  }
  return { value, problems };
}
