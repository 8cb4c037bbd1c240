// Raw SQL (drizzle's sql`` with its bound values) and query builders as D1 statements, so it can go in one batch (one round trip) with
// other statements: drizzle's own batch cannot take raw SQL that binds values.
import { is, SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "./client.ts";

const dialect = new SQLiteAsyncDialect();

/** A drizzle query builder (select, insert, update, delete): what it would run. */
interface BuiltQuery {
  toSQL(): { sql: string; params: unknown[] };
}

/** `query` (raw SQL or a query builder) as a statement of what `db` runs on (the database, or a D1 session). */
export function rawStatement(db: Db, query: SQL | BuiltQuery): D1PreparedStatement {
  const built = is(query, SQL) ? dialect.sqlToQuery(query) : query.toSQL();
  return db.$client.prepare(built.sql).bind(...built.params);
}

/** The rows of one result of a raw batch, of the shape its SELECT names (as drizzle's db.all<T> takes it). */
export function rowsOf<T>(result: D1Result | undefined): T[] {
  return (result?.results ?? []) as T[];
}
