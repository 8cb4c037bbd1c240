// A D1 binding that counts and delays its round trips, for bench/d1-round-trips.ts: every call that reaches the
// database (a statement's first/all/run/raw, a batch, exec) is one round trip, to the primary or, for a read inside a
// Sessions API session that is not pinned to the primary, to a replica. Each is delayed by the modelled distance, so
// the wall time of a request shows how its round trips line up (calls made together overlap; calls made one after
// another add up). Sequential round trips are counted as "waves": a call that starts while no other call of the
// request is in flight begins a new wave.

export interface Distances {
  primaryMs: number;
  replicaMs: number;
}

export interface TraceCounts {
  /** Sequential round trips that reached the primary. */
  primaryWaves: number;
  /** Sequential round trips that reached only replicas. */
  replicaWaves: number;
  /** Every call, whatever overlapped. */
  calls: number;
}

// Where the model says a call was served, as D1 says it in each result's meta (the local database, one copy, says
// "the primary" of every call): a modelled primary in eastern North America, a replica near the Worker in Europe.
export const TRACE_REGIONS = { primary: "ENAM", replica: "WEUR" } as const;

/** `answer` with the meta of each of its results saying which copy the model sent the call to. */
function servedBy<T>(answer: T, toPrimary: boolean): T {
  const results: unknown[] = Array.isArray(answer) ? answer : [answer];
  for (const result of results) {
    const meta = (result as { meta?: Record<string, unknown> } | null)?.meta;
    if (typeof meta !== "object" || meta === null) continue; // first() and raw() answer rows, without meta
    meta.served_by_primary = toPrimary;
    meta.served_by_region = toPrimary ? TRACE_REGIONS.primary : TRACE_REGIONS.replica;
  }
  return answer;
}

/** A statement that only reads: a SELECT, or a WITH that writes nothing (a model good enough for our own SQL). */
const isRead = (sql: string) => /^\s*select\b/i.test(sql) || (/^\s*with\b/i.test(sql) && !/\b(insert|update|delete|replace)\b/i.test(sql));

/** The statements of a batch, for the log. */
const sqlOf = (statements: D1PreparedStatement[]) => statements.map((s) => (s as unknown as { __sql?: string }).__sql ?? "?").join(" ; ");

export class D1Trace {
  readonly counts: TraceCounts = { primaryWaves: 0, replicaWaves: 0, calls: 0 };
  /** Each call's SQL (a batch's statements joined by " ; "), numbered by its wave, to tell what a wave was for. */
  readonly log: string[] = [];
  private inFlight = 0;
  /** Whether the wave now in flight reached the primary (a wave that touches both counts as primary). */
  private waveTouchesPrimary = false;
  private waveCounted: "none" | "replica" | "primary" = "none";

  constructor(
    private readonly real: D1Database,
    private readonly distances: Distances,
  ) {}

  /** Runs one round trip: counts it, waits the modelled distance, then does the real work. */
  private async trip<T>(toPrimary: boolean, work: () => Promise<T>, sql = ""): Promise<T> {
    this.counts.calls++;
    if (this.inFlight === 0) {
      this.waveTouchesPrimary = false;
      this.waveCounted = "none";
    }
    this.inFlight++;
    if (toPrimary && !this.waveTouchesPrimary) {
      this.waveTouchesPrimary = true;
      if (this.waveCounted === "replica") this.counts.replicaWaves--;
      this.counts.primaryWaves++;
      this.waveCounted = "primary";
    } else if (!toPrimary && this.waveCounted === "none") {
      this.counts.replicaWaves++;
      this.waveCounted = "replica";
    }
    this.log.push(`${this.counts.primaryWaves + this.counts.replicaWaves}${toPrimary ? "P" : "R"}: ${sql}`);
    try {
      await new Promise((r) => setTimeout(r, toPrimary ? this.distances.primaryMs : this.distances.replicaMs));
      return servedBy(await work(), toPrimary);
    } finally {
      this.inFlight--;
    }
  }

  private statement(stmt: D1PreparedStatement, sql: string, replicaReads: () => boolean): D1PreparedStatement {
    const toPrimary = () => !(isRead(sql) && replicaReads());
    const wrapped: D1PreparedStatement = Object.create(stmt) as D1PreparedStatement;
    return Object.assign(wrapped, {
      bind: (...values: unknown[]) => this.statement(stmt.bind(...values), sql, replicaReads),
      first: (column?: string) => this.trip(toPrimary(), () => (column === undefined ? stmt.first() : stmt.first(column)), sql),
      all: () => this.trip(toPrimary(), () => stmt.all(), sql),
      run: () => this.trip(toPrimary(), () => stmt.run(), sql),
      raw: (options?: { columnNames?: boolean }) => this.trip(toPrimary(), () => stmt.raw(options as { columnNames: true }), sql),
      // batch() unwraps statements through this.
      __real: stmt,
      __sql: sql,
    });
  }

  /** A session's reads may go to replicas unless it began at the primary; its writes go to the primary. */
  private session(real: D1DatabaseSession, constraint: string): D1DatabaseSession {
    let wrote = false;
    const replicaReads = () => constraint !== "first-primary" && !wrote;
    const wrapped = {
      prepare: (sql: string) => this.statement(real.prepare(sql), sql, replicaReads),
      batch: <T>(statements: D1PreparedStatement[]) => {
        const reals = statements.map((s) => (s as unknown as { __real: D1PreparedStatement }).__real ?? s);
        const allRead = statements.every((s) => isRead((s as unknown as { __sql?: string }).__sql ?? ""));
        if (!allRead) wrote = true;
        return this.trip(!(allRead && replicaReads()), () => real.batch<T>(reals), sqlOf(statements));
      },
      getBookmark: () => real.getBookmark(),
    };
    return wrapped as unknown as D1DatabaseSession;
  }

  /** The binding to hand the Worker. */
  get db(): D1Database {
    return this.over(this.real);
  }

  /** `real` (another binding of the same database, a Durable Object's: rooms.ts) traced into these counts. */
  over(real: D1Database): D1Database {
    const wrapped = {
      prepare: (sql: string) => this.statement(real.prepare(sql), sql, () => false),
      batch: <T>(statements: D1PreparedStatement[]) =>
        this.trip(true, () => real.batch<T>(statements.map((s) => (s as unknown as { __real: D1PreparedStatement }).__real ?? s)), sqlOf(statements)),
      exec: (sql: string) => this.trip(true, () => real.exec(sql), sql),
      dump: () => real.dump(),
      withSession: (constraint?: string) => this.session(real.withSession(constraint as D1SessionConstraint), constraint ?? "first-unconstrained"),
    };
    return wrapped as unknown as D1Database;
  }
}
