// A session's batch that writes, said so by its sender. D1 runs a batch that writes on the primary, and only the
// sender knows what its statements do (nothing is told from their SQL's text). The credential gate needs to know
// (worker/auth/gated-d1.ts): the failure of such a batch is the primary's answer, never a replica's lag, and a batch
// whose guards may refuse it (worker/db/sql-guard.ts) has the credential's verdict asked alongside it, so that a
// refusal costs one round trip. A session that does not offer its own write batch (the runtime's) is used as is.

/** The key under which a session may offer its own batch for writes. */
export const WRITE_BATCH = Symbol("studio.writeBatch");

type WriteBatch = <T>(statements: D1PreparedStatement[]) => Promise<D1Result<T>[]>;

/** `session` with every batch sent as one that writes; statements are prepared on it as before. */
export function writesThrough(session: D1DatabaseSession): D1DatabaseSession {
  const offered = (session as unknown as Record<symbol, WriteBatch | undefined>)[WRITE_BATCH];
  if (!offered) return session;
  const writes = {
    prepare: (sql: string) => session.prepare(sql),
    batch: <T>(statements: D1PreparedStatement[]) => offered<T>(statements),
    getBookmark: () => session.getBookmark(),
  };
  return writes as unknown as D1DatabaseSession;
}
