// A D1 binding that throws every failure of the real one in other words (test/worker/guard-wording.test.ts): what
// the Worker meets if SQLite or D1 ever word, wrap or truncate their errors differently. A plain object, as a
// wrapped D1 is recognised (worker/auth/gated-bindings.ts); statements prepared on it run as the real ones.

export type Reword = (message: string) => string;

/** Whether a statement, run on its own, fails as if D1 could not be reached (it is then not run). */
export type Lost = (sql: string, values: unknown[]) => boolean;

/**
 * `db` as a binding (a plain object, as a wrapped D1 is recognised) whose every failure is thrown in other words;
 * a statement `lost` picks fails without running, as one D1 never answered would.
 */
export function rewordedD1(db: D1Database, reword: Reword, lost: Lost = () => false): D1Database {
  const reals = new WeakMap<object, D1PreparedStatement>();
  const fail = (err: unknown): never => {
    throw new Error(reword(err instanceof Error ? err.message : String(err)));
  };
  const real = (s: D1PreparedStatement) => reals.get(s) ?? s;
  const statement = (s: D1PreparedStatement, sql: string, values: unknown[] = []): D1PreparedStatement => {
    const go = <T>(run: () => Promise<T>): Promise<T> => (lost(sql, values) ? Promise.reject(new Error("D1_ERROR: Network connection lost.")) : run()).catch(fail);
    const wrapped = {
      bind: (...bound: unknown[]) => statement(s.bind(...bound), sql, bound),
      first: (column?: string) => go(() => (column === undefined ? s.first() : s.first(column))),
      all: () => go(() => s.all()),
      run: () => go(() => s.run()),
      raw: (options?: { columnNames?: boolean }) => go(() => (options?.columnNames ? s.raw({ columnNames: true }) : s.raw())),
    } as unknown as D1PreparedStatement;
    reals.set(wrapped, s);
    return wrapped;
  };
  const session = (s: D1DatabaseSession) =>
    ({
      prepare: (sql: string) => statement(s.prepare(sql), sql),
      batch: (list: D1PreparedStatement[]) => s.batch(list.map(real)).catch(fail),
      getBookmark: () => s.getBookmark(),
    }) as unknown as D1DatabaseSession;
  return {
    prepare: (sql: string) => statement(db.prepare(sql), sql),
    batch: (list: D1PreparedStatement[]) => db.batch(list.map(real)).catch(fail),
    exec: (sql: string) => db.exec(sql).catch(fail),
    dump: () => db.dump(),
    withSession: (constraint?: string) => session(db.withSession(constraint as D1SessionConstraint)),
  } as unknown as D1Database;
}
