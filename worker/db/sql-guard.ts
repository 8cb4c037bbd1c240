// Guards: conditions checked inside a D1 batch, so a write checks what it needs and writes in ONE round trip.
// SQLite has no RAISE() outside triggers, but json_extract with a malformed JSON path is an error whose message quotes
// the path ("JSON path error near '<path>'"); a guard is a SELECT that evaluates such a path, named by a marker of
// ours, when its condition does not hold. D1 runs a batch as one transaction, so a failed guard rolls back the whole
// batch (its writes too) and the marker in the error says which guard it was.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "./client.ts";

/** Starts every marker, so any guard's error is told apart from other SQL errors. */
const PREFIX = "studio_guard_";

export interface Guard {
  /** Names the guard in the error; only letters, digits and underscores. */
  marker: string;
  /** Must hold (be true: false and NULL both refuse) for the batch to go on. */
  holds: SQL;
  /** What the caller is answered when it does not (it may read the current state to say why). */
  refusal: () => Error | Promise<Error>;
}

/** An SQL expression that fails with `marker` when `condition` is true, and is harmless otherwise. */
export function failWhen(condition: SQL, marker: string): SQL<string> {
  return sql<string>`json_extract('{}', CASE WHEN ${condition} THEN ${PREFIX + marker} ELSE '$' END)`;
}

/**
 * The guard's statement, to put in a batch before the writes it protects. A select builder, not `db.run(sql)`:
 * drizzle's D1 batch cannot bind the parameters of a raw query. Its one row comes from a one-row subquery.
 */
export function guardQuery(db: Db, guard: Guard) {
  // NULL is not "holds": `NOT (NULL)` is NULL, which CASE reads as false, so a guard comparing a NULL column (a row
  // with no owner, a row that is not there) would let the batch through. coalesce counts NULL as false.
  return db.select({ checked: failWhen(sql`coalesce((${guard.holds}), 0) = 0`, guard.marker) }).from(sql`(SELECT 1)`);
}

/** Whether a failed statement or batch failed on the guard named `marker`. */
export function failedOn(err: unknown, marker: string): boolean {
  return messagesOf(err).some((m) => m.includes(`${PREFIX}${marker}`));
}

function messagesOf(err: unknown): string[] {
  const messages: string[] = [];
  for (let e: unknown = err; e instanceof Error && messages.length < 8; e = e.cause) messages.push(e.message);
  return messages;
}
