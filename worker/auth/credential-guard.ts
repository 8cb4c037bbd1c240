// The credential guard: a credential lookup (resolvers.ts) rewritten so that it fails as SQL when the credential is
// not valid. Put first in a D1 batch, it makes the batch check the caller and do the work in ONE round trip, and,
// because D1 runs a batch as one transaction that rolls back when any statement fails, a write batched after it
// commits only if the credential was still valid when the write ran.
//
// How it fails: SQLite has no RAISE() outside triggers, but json() of a malformed text is an error. The lookup is
// LEFT JOINed to a single constant row, so the statement always yields exactly one row, and that row evaluates
// json('') (an error: "malformed JSON") when the lookup found nothing, json('{}') (fine) when it found the caller.
// The argument depends on the joined row, so SQLite cannot evaluate it ahead of time as a constant.
// test/worker/credential-gate.test.ts checks that it errors, and that a write batched after it is rolled back.
import type { CredentialLookup } from "./resolvers.ts";

/** The guard statement of a lookup, bound; its one row is the lookup's row plus a `studio_guard` column. */
export function guardStatement(db: D1Database | D1DatabaseSession, lookup: CredentialLookup, hash: string, now: number): D1PreparedStatement {
  const sql =
    `WITH found AS (${lookup.sql}) ` +
    `SELECT json(CASE WHEN found.id IS NULL THEN '' ELSE '{}' END) AS studio_guard, found.* ` +
    `FROM (SELECT 1) LEFT JOIN found ON 1`;
  return db.prepare(sql).bind(...lookup.params(hash, now));
}

/** The plain lookup, bound: no row when the credential is not valid. */
export function lookupStatement(db: D1Database | D1DatabaseSession, lookup: CredentialLookup, hash: string, now: number): D1PreparedStatement {
  return db.prepare(lookup.sql).bind(...lookup.params(hash, now));
}
