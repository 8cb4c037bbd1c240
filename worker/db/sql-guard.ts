// Guards: conditions checked inside a D1 batch, so a write checks what it needs and writes in ONE round trip.
// SQLite has no RAISE() outside triggers, but json_extract with a malformed JSON path is an error whose message quotes
// the path ("JSON path error near '<path>'"); a guard is a SELECT that evaluates such a path, named by a marker of
// ours, when its condition does not hold. D1 runs a batch as one transaction, so a failed guard rolls back the whole
// batch (its writes too).
//
// Which guard refused is decided by whichGuardRefused, and never by the error's wording alone: SQLite or D1 may word,
// wrap or truncate that message differently one day, and a refusal (a 404, 403, 409, 429, a spent refresh token)
// must not turn into a 500 then. The trade:
// - Fast path, today's wording: the message names exactly one of the batch's markers, written whole between
//   brackets (`studio_guard[<marker>]`, so a truncated marker or one that is a prefix of another never matches a
//   wrong guard). That guard refused; no second round trip, the refusal costs one trip like the write.
// - Otherwise (no marker of the batch, several, or any other error): the conditions are read back in one SELECT from
//   the primary. The batch rolled back whole, so the state read is the one it started from (up to writes of others
//   in between, as with any check); the first check in batch order that does not hold is the one the batch stopped
//   on. Only when every check holds is the failure not a refusal, and the caller rethrows the original error. This
//   costs a second round trip, paid only when the wording is not today's or the batch failed for another reason.
import { DrizzleQueryError, sql, type SQL } from "drizzle-orm";
import type { Db } from "./client.ts";
import { ApiError } from "../http/errors.ts";
import { logEvent } from "../http/log.ts";

/** A guard's path in SQLite's error: the marker whole, so it is matched exactly, never as part of another. */
const pathOf = (marker: string) => `studio_guard[${marker}]`;
const PATHS = /studio_guard\[([A-Za-z0-9_]+)\]/g;

/** A condition a batch checks, as whichGuardRefused asks it again after the batch failed. */
export interface Check {
  /** Names the check in the error; only letters, digits and underscores. */
  marker: string;
  /**
   * Whether the batch may go on past this check, asked of the state the batch starts from (true: go on; false and
   * NULL both refuse). A guard's own condition; for a check made on a row the batch writes (a spend's RETURNING),
   * the same question put to the row before the write (fixed-window.ts' spendCheck).
   */
  holds: SQL;
}

export interface Guard extends Check {
  /** What the caller is answered when it does not hold (it may read the current state to say why). */
  refusal: () => Error | Promise<Error>;
}

/** An SQL expression that fails with `marker` when `condition` is true, and is harmless otherwise. */
export function failWhen(condition: SQL, marker: string): SQL<string> {
  return sql<string>`json_extract('{}', CASE WHEN ${condition} THEN ${pathOf(marker)} ELSE '$' END)`;
}

// NULL is not "holds": `NOT (NULL)` is NULL, which CASE reads as false, so a guard comparing a NULL column (a row
// with no owner, a row that is not there) would let the batch through. coalesce counts NULL as false.
const refuses = (holds: SQL) => sql`coalesce((${holds}), 0) = 0`;

/**
 * The guard's statement, to put in a batch before the writes it protects. A select builder, not `db.run(sql)`:
 * drizzle's D1 batch cannot bind the parameters of a raw query. Its one row comes from a one-row subquery.
 */
export function guardQuery(db: Db, guard: Guard) {
  return db.select({ checked: failWhen(refuses(guard.holds), guard.marker) }).from(sql`(SELECT 1)`);
}

/**
 * Which of a failed batch's `checks` (in batch order) refused it, or null when none did: the failure is then not a
 * refusal, and the caller rethrows `err`. `primary` reads the conditions back when the error does not name exactly
 * one of them (see the header): a Db over the database itself, never a session a replica may answer.
 */
export async function whichGuardRefused<C extends Check>(primary: Db, checks: readonly C[], err: unknown): Promise<C | null> {
  // An answer already (the credential gate's 401, thrown in place of the batch's failure) is no guard's doing.
  if (err instanceof ApiError) return null;
  const named = markersIn(err);
  const byName = checks.filter((c) => named.has(c.marker));
  if (byName.length === 1) return byName[0]!;
  if (checks.length === 0) return null;
  // Each column named: unnamed ones of the same SQL text (two spends' checks) would share a name, and a D1 batch
  // (the credential gate sends one) answers rows as objects keyed by name.
  const columns = Object.fromEntries(checks.map((c, i) => [`refused${i}`, sql<number>`CASE WHEN ${refuses(c.holds)} THEN 1 ELSE 0 END`.as(`refused${i}`)]));
  let row: Record<string, number> | undefined;
  try {
    row = await primary.select(columns).from(sql`(SELECT 1)`).get();
  } catch (readErr) {
    // The batch's own error is the one to answer with; the read's is kept in the log.
    logEvent("warn", "guard.read_back_failed", { error: readErr, batchError: err });
    return null;
  }
  return checks.find((_, i) => row?.[`refused${i}`] === 1) ?? null;
}

/**
 * Every guard marker named whole in the messages of `err` and its causes: the database's words only. Drizzle's own
 * wrapper ("Failed query: <sql> params: <values>") quotes the statement, whose parameters name every marker it could
 * fail with, whatever it failed on (a timeout of a refresh-token claim read as a replay revoked the grant).
 */
function markersIn(err: unknown): Set<string> {
  const markers = new Set<string>();
  let depth = 0;
  for (let e: unknown = err; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof DrizzleQueryError) continue;
    for (const match of e.message.matchAll(PATHS)) markers.add(match[1]!);
  }
  return markers;
}
