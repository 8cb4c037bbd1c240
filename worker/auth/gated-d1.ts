// A request's D1 binding behind its RequestGate (request-gate.ts), so that the credential check rides on the
// request's own D1 work instead of costing a round trip before it:
// - a read (a SELECT, or a WITH that writes nothing) goes at once, and starts the check alongside it on the primary
//   if no call has yet: the two travel together, one round trip;
// - a write, while the check has not passed, is sent as a batch with the guard first (credential-guard.ts): one
//   round trip, one transaction, rolled back if the credential is not valid; once the check has passed, as is;
// - exec() waits for the check (nothing uses it on a request's path).
// Sessions (withSession) get the same treatment: the guard of a session's read still goes to the primary, a
// replica may not yet know of a rotation; a session's write batch goes to the primary anyway.
import type { RequestGate } from "./request-gate.ts";

/** A statement that cannot write: a SELECT, or a WITH without INSERT, UPDATE, DELETE or REPLACE (any doubt: a write). */
export function isReadOnlySql(sql: string): boolean {
  if (/^\s*select\b/i.test(sql)) return true;
  return /^\s*with\b/i.test(sql) && !/\b(insert|update|delete|replace)\b/i.test(sql);
}

/** Where a statement runs: the database or one of its sessions. */
interface Target {
  gate: RequestGate;
  on: D1Database | D1DatabaseSession;
}

class GatedStatement {
  constructor(
    readonly real: D1PreparedStatement,
    readonly sql: string,
    private readonly target: Target,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return asStatement(new GatedStatement(this.real.bind(...values), this.sql, this.target));
  }

  first(column?: string): Promise<unknown> {
    const direct = () => (column === undefined ? this.real.first() : this.real.first(column));
    return this.call(direct, (result) => {
      const row = (result.results[0] ?? null) as Record<string, unknown> | null;
      return column === undefined ? row : (row?.[column] ?? null);
    });
  }

  all(): Promise<unknown> {
    return this.call(() => this.real.all(), (result) => result);
  }

  run(): Promise<unknown> {
    return this.call(() => this.real.run(), (result) => result);
  }

  raw(options?: { columnNames?: boolean }): Promise<unknown> {
    const direct = () => (options?.columnNames ? this.real.raw({ columnNames: true }) : this.real.raw());
    // A batch answers with objects: back to arrays in column order. Only a write reaches this (an INSERT or UPDATE
    // ... RETURNING of one table, whose column names are distinct, so no value is lost to a shared name).
    return this.call(direct, (result) => {
      const rows = (result.results as Record<string, unknown>[]).map((row) => Object.values(row));
      return options?.columnNames ? [Object.keys(result.results[0] ?? {}), ...rows] : rows;
    });
  }

  /** Runs the statement: directly when it only reads or the caller is cleared, else batched behind the guard. */
  private async call<T>(direct: () => Promise<T>, fromBatch: (result: D1Result) => unknown): Promise<unknown> {
    const { gate, on } = this.target;
    if (isReadOnlySql(this.sql)) {
      gate.alongsideRead();
      return direct();
    }
    if (gate.cleared) return direct();
    const [result] = await gate.guardedBatch([this.real], on, (statements) => on.batch(statements));
    return fromBatch(result!);
  }
}

function asStatement(statement: GatedStatement): D1PreparedStatement {
  return statement as unknown as D1PreparedStatement;
}

/** A batch behind the gate: all reads go at once (with the check alongside), anything else behind the guard. */
function gatedBatch<T>(target: Target, statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
  const gated = statements.map((s) => (s instanceof GatedStatement ? s : null));
  const reals = statements.map((s, i) => gated[i]?.real ?? s);
  const send = (list: D1PreparedStatement[]) => target.on.batch<T>(list);
  if (gated.every((s) => s !== null && isReadOnlySql(s.sql))) {
    target.gate.alongsideRead();
    return send(reals);
  }
  return target.gate.guardedBatch<T>(reals, target.on, send);
}

/** The session of a gated database: the same rules, with the session's own batch for writes. */
function gatedSession(real: D1DatabaseSession, gate: RequestGate): D1DatabaseSession {
  const target: Target = { gate, on: real };
  const session = {
    prepare: (sql: string) => asStatement(new GatedStatement(real.prepare(sql), sql, target)),
    batch: <T>(statements: D1PreparedStatement[]) => gatedBatch<T>(target, statements),
    getBookmark: () => real.getBookmark(),
  };
  return session as unknown as D1DatabaseSession;
}

/** The request's D1 binding, behind its gate. */
export function gatedD1(real: D1Database, gate: RequestGate): D1Database {
  const target: Target = { gate, on: real };
  const db = {
    prepare: (sql: string) => asStatement(new GatedStatement(real.prepare(sql), sql, target)),
    batch: <T>(statements: D1PreparedStatement[]) => gatedBatch<T>(target, statements),
    exec: async (sql: string) => {
      await gate.clear();
      return real.exec(sql);
    },
    dump: () => real.dump(),
    withSession: (constraintOrBookmark?: string) => gatedSession(real.withSession(constraintOrBookmark), gate),
  };
  return db as unknown as D1Database;
}
