// Query strings, read the same way on every route: each route declares its parameters as a zod object, values are
// checked (a flag is true, false, 1 or 0; never "yes" taken silently as false), unknown parameters are refused, and
// any problem is a 400 with code invalid_query that names the parameter. `token` is the query form of the
// credential (for plain links and event streams) and is allowed everywhere.
import type { Context } from "hono";
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { badRequest } from "./errors.ts";

const TRUE = ["true", "1", ""] as const;
const FALSE = ["false", "0"] as const;

/** A boolean flag: `true`/`1`, `false`/`0`; a bare `?download` means true, as the spec writes it. */
export const queryFlag = lazy(() =>
  z.enum([...TRUE, ...FALSE], { error: "must be true, false, 1 or 0" }).transform((value) => (TRUE as readonly string[]).includes(value)),
);

/** A whole number in [min, max]. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** A route's query schema with the parameters every route takes (the token) added; strict, so an unknown parameter is refused. */
export const querySchema = <T extends z.core.$ZodLooseShape>(shape: T) => z.strictObject({ token: z.string().optional(), ...shape });

/** Validates a query object (from `c.req.query()`) against a schema built with querySchema. */
export function parseQuery<S extends z.ZodType>(schema: S, query: Record<string, string>): z.output<S> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const keys = issue.code === "unrecognized_keys" ? issue.keys : issue.path;
  const where = keys.length ? keys.join(", ") : "query";
  const message = issue.code === "unrecognized_keys" ? `unknown query parameter ${where}` : `invalid query ${where}: ${issue.message}`;
  throw badRequest(message, "invalid_query");
}

/** Reads and validates the request's query string. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parseQuery(schema, c.req.query());
}

/** Parameters of every paged list: `limit` items per page (1 to 100) and `next`, the cursor a page returned. */
export const PAGE_LIMIT_MAX = 100;
export const pageParams = () => ({
  limit: queryInt(1, PAGE_LIMIT_MAX).optional(),
  next: z.string().max(500).optional(),
});

/** The page size a list uses: the given limit; the largest page when only a cursor is given; else the whole list. */
export const pageLimit = (query: { limit?: number; next?: string }) => query.limit ?? (query.next === undefined ? undefined : PAGE_LIMIT_MAX);
