// The room's numbered events (start, line, end) in its SQLite storage, so an event stream that broke (the client's
// connection, or the room's eviction) resumes from Last-Event-ID with nothing lost and nothing repeated. Ids only
// grow (AUTOINCREMENT), across renders; the newest MAX_EVENTS are kept.
const MAX_EVENTS = 12_000;

export interface LoggedEvent {
  id: number;
  event: string;
  data: string;
}

export class EventLog {
  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL, data TEXT NOT NULL)");
  }

  /** Stores the event; returns its id. */
  append(event: string, data: unknown): number {
    const row = this.sql
      .exec<{ seq: number }>("INSERT INTO events (event, data) VALUES (?, ?) RETURNING seq", event, JSON.stringify(data))
      .one();
    this.sql.exec("DELETE FROM events WHERE seq <= ?", row.seq - MAX_EVENTS);
    return row.seq;
  }

  /** The id of the newest event, 0 when none was ever sent. */
  latestId(): number {
    return this.sql.exec<{ seq: number | null }>("SELECT max(seq) AS seq FROM events").one().seq ?? 0;
  }

  /** Events after `id`, or null when some of them are no longer kept (or `id` was never given out). */
  since(id: number): LoggedEvent[] | null {
    const latest = this.latestId();
    if (!Number.isInteger(id) || id < 0 || id > latest) return null;
    const oldest = this.sql.exec<{ seq: number | null }>("SELECT min(seq) AS seq FROM events").one().seq ?? latest + 1;
    if (id < oldest - 1) return null;
    return this.sql
      .exec<{ seq: number; event: string; data: string }>("SELECT seq, event, data FROM events WHERE seq > ? ORDER BY seq", id)
      .toArray()
      .map((r) => ({ id: r.seq, event: r.event, data: r.data }));
  }
}
