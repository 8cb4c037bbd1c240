// A request's D1 binding while its cached caller is not yet confirmed (request-gate.ts). Every statement and batch
// sent before the verdict goes as a batch with the credential guard first (credential-guard.ts): one round trip, one
// transaction, so nothing it writes commits and nothing it reads is returned unless the credential is valid. A read
// and a write are treated alike (nothing is told from the SQL's text); once the verdict is in, calls go as they are.
// Sessions (withSession) get the same treatment; a session's batch may be answered by a replica, whose guard is no
// verdict: the verdict is then the primary's (request-gate.ts says when it is asked).
import { firstOf, rawOf } from "../db/answer-shapes.ts";
import { WRITE_BATCH } from "../db/write-batch.ts";
import type { Reach, RequestGate } from "./request-gate.ts";

/** Where a statement runs: the database or one of its sessions. */
interface Target {
  gate: RequestGate;
  on: D1Database | D1DatabaseSession;
  /** Which copy answers a batch sent here (the database: the primary; a session's: any copy). */
  reach: Reach;
}

/** A batch sent behind the gate, its own statements' results. */
function send<T>(target: Target, statements: D1PreparedStatement[], reach = target.reach): Promise<D1Result<T>[]> {
  const { gate, on } = target;
  return gate.guarded<T>(statements, on, (list) => on.batch(list), reach);
}

class GatedStatement {
  constructor(
    readonly real: D1PreparedStatement,
    private readonly target: Target,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return asStatement(new GatedStatement(this.real.bind(...values), this.target));
  }

  first(column?: string): Promise<unknown> {
    const direct = () => (column === undefined ? this.real.first() : this.real.first(column));
    return this.call(direct, (result) => firstOf(result, column));
  }

  all(): Promise<unknown> {
    return this.call(() => this.real.all(), (result) => result);
  }

  run(): Promise<unknown> {
    return this.call(() => this.real.run(), (result) => result);
  }

  raw(options?: { columnNames?: boolean }): Promise<unknown> {
    const direct = () => (options?.columnNames ? this.real.raw({ columnNames: true }) : this.real.raw());
    // A batch answers with objects: back to arrays (worker/db/answer-shapes.ts).
    return this.call(direct, (result) => rawOf(result, options));
  }

  /** Runs the statement: as is once the caller is confirmed, else as a batch behind the guard. */
  private async call<T>(direct: () => Promise<T>, fromBatch: (result: D1Result) => unknown): Promise<unknown> {
    if (this.target.gate.confirmed) return direct();
    const [result] = await send(this.target, [this.real]);
    return fromBatch(result!);
  }
}

function asStatement(statement: GatedStatement): D1PreparedStatement {
  return statement as unknown as D1PreparedStatement;
}

/** A batch behind the gate: its real statements, the guard first until the verdict is in. */
function gatedBatch<T>(target: Target, statements: D1PreparedStatement[], reach = target.reach): Promise<D1Result<T>[]> {
  return send<T>(target, statements.map((s) => (s instanceof GatedStatement ? s.real : s)), reach);
}

/** The session of a gated database: the same rules, with the session's own batch. */
function gatedSession(real: D1DatabaseSession, gate: RequestGate): D1DatabaseSession {
  const target: Target = { gate, on: real, reach: "any copy" };
  const session = {
    prepare: (sql: string) => asStatement(new GatedStatement(real.prepare(sql), target)),
    batch: <T>(statements: D1PreparedStatement[]) => gatedBatch<T>(target, statements),
    // A batch its sender says writes (worker/db/write-batch.ts): the primary runs it.
    [WRITE_BATCH]: <T>(statements: D1PreparedStatement[]) => gatedBatch<T>(target, statements, "writes"),
    getBookmark: () => real.getBookmark(),
  };
  return session as unknown as D1DatabaseSession;
}

/** The request's D1 binding, behind its gate. */
export function gatedD1(real: D1Database, gate: RequestGate): D1Database {
  const target: Target = { gate, on: real, reach: "primary" };
  const db = {
    prepare: (sql: string) => asStatement(new GatedStatement(real.prepare(sql), target)),
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
