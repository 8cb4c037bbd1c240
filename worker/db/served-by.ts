// Where a request's D1 calls were served, for its log line (worker/http/request-log.ts): how many calls, how many
// the primary answered, and how many each region's copy answered. An operator reads it to see that the reads of
// the routes in a Sessions API session (read-session.ts) reach replicas near the Worker, not the primary far away.
// D1 says it in each answer's meta (`served_by_primary`, `served_by_region`). first() and raw() answer rows without
// meta, so they are asked of all() and their answer made from its rows (answer-shapes.ts); exec() says nothing and
// is counted as a call only.
import { firstOf, rawOf } from "./answer-shapes.ts";

export interface ServedBy {
  /** Every call that reached D1: a statement's first/all/run/raw, a batch, an exec. */
  calls: number;
  /** The calls whose answer says the primary served them. */
  primary: number;
  /** The calls per region whose answer names it (a replica's, or the primary's). */
  regions: Record<string, number>;
}

/** Counts a D1 binding's calls into `counts`; `over` gives the binding to use instead of `db`. */
export class ServedByCounter {
  readonly counts: ServedBy = { calls: 0, primary: 0, regions: {} };
  /** The real statement behind each counted one, for batches. */
  private readonly reals = new WeakMap<object, D1PreparedStatement>();

  /** One call answered: its meta counted (a batch's first result speaks for the batch, one transaction). */
  private note<T extends D1Result | D1Result[]>(answer: T): T {
    const first: D1Result | undefined = Array.isArray(answer) ? answer[0] : (answer as D1Result);
    const meta = first?.meta;
    if (meta?.served_by_primary === true) this.counts.primary++;
    const region = meta?.served_by_region;
    if (typeof region === "string" && region) this.counts.regions[region] = (this.counts.regions[region] ?? 0) + 1;
    return answer;
  }

  private call<T extends D1Result | D1Result[]>(run: () => Promise<T>): Promise<T> {
    this.counts.calls++;
    return run().then((answer) => this.note(answer));
  }

  private statement(real: D1PreparedStatement): D1PreparedStatement {
    const counted = {
      bind: (...values: unknown[]) => this.statement(real.bind(...values)),
      first: (column?: string) => this.call(() => real.all()).then((result) => firstOf(result, column)),
      all: () => this.call(() => real.all()),
      run: () => this.call(() => real.run()),
      raw: (options?: { columnNames?: boolean }) => this.call(() => real.all()).then((result) => rawOf(result, options)),
    };
    this.reals.set(counted, real);
    return counted as unknown as D1PreparedStatement;
  }

  private batch<T>(on: D1Database | D1DatabaseSession, statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.call(() => on.batch<T>(statements.map((s) => this.reals.get(s) ?? s)));
  }

  private session(real: D1DatabaseSession): D1DatabaseSession {
    const counted = {
      prepare: (sql: string) => this.statement(real.prepare(sql)),
      batch: <T>(statements: D1PreparedStatement[]) => this.batch<T>(real, statements),
      getBookmark: () => real.getBookmark(),
    };
    return counted as unknown as D1DatabaseSession;
  }

  /** `db` counted: a plain object with D1's methods (worker/auth/gated-bindings.ts recognises it as a D1 binding). */
  over(db: D1Database): D1Database {
    const counted = {
      prepare: (sql: string) => this.statement(db.prepare(sql)),
      batch: <T>(statements: D1PreparedStatement[]) => this.batch<T>(db, statements),
      exec: (sql: string) => {
        this.counts.calls++;
        return db.exec(sql);
      },
      dump: () => db.dump(),
      withSession: (constraintOrBookmark?: string) => this.session(db.withSession(constraintOrBookmark)),
    };
    return counted as unknown as D1Database;
  }
}
