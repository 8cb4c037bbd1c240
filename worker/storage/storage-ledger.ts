// One StorageLedger per user (a SQLite-backed Durable Object named by the user id): the one owner of what the user
// stores in R2 against their quota. Every write is admitted here before its bytes are kept, and every delete goes
// through here, so there is no read-then-act gap for concurrent requests to fall into.
//
//   objects   key -> size of every object the user has under p/<userId>/ and r/<userId>/, with running totals in
//             `ledger`, so an admission never sums rows.
//   tickets   pending reservations: a write of at most `bytes` to `key`. A key is charged max(its recorded size,
//             its largest pending reservation) and counts as one object if recorded or pending, so a quota check
//             never credits an old size a concurrent write might still leave in place.
//
// A write settles its ticket when it is done (or failed): the ledger heads the key in R2 and records what R2 really
// holds, under a per-key lock that its own heads and deletes share, so the table always reflects an R2 read made
// after the write, whatever order concurrent writers and deleters finish in. A ticket nobody settles (the Worker
// died) lapses after TICKET_TTL_MS and the alarm settles it the same way; a writer renews its ticket while bytes
// flow and once more before its last bytes are kept, so a write whose ticket lapsed never lands.
//
// Reconciliation brings the table to an R2 listing (list-stored.ts: the projects listed side by side) and reports the
// drift it corrected, writing only the rows that differ: on a ledger's first use (counting what the user already
// has), and an hour after the ledger last changed, from the alarm. Each ledger
// schedules its own, so no registry of users is needed. Segment files of split renders (seg/) are scratch space
// removed when the render ends: not counted.
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { renderPrefix, userProjectsPrefix } from "./keys.ts";
import { listStored } from "./list-stored.ts";
import type { Reconciled, Reserved, Stored, Ticket, Want } from "./ledger-types.ts";
import { logEvent } from "../http/log.ts";
import { KeyLocks } from "./key-locks.ts";
import { settled } from "../../core/settled.ts";

/** How long a reservation lives without being renewed or settled. */
export const TICKET_TTL_MS = 15 * 60_000;
/** How long after a change the ledger checks itself against R2. */
export const RECONCILE_AFTER_MS = 60 * 60_000;
/** R2 deletes at most this many keys at once. */
const DELETE_BATCH = 1000;

type LedgerRow = {
  user_id: string;
  bytes: number;
  objects: number;
  counted_at: number | null;
  reconcile_at: number | null;
};

const plus = (a: Stored, b: Stored): Stored => ({ bytes: a.bytes + b.bytes, objects: a.objects + b.objects });
const minus = (a: Stored, b: Stored): Stored => ({ bytes: a.bytes - b.bytes, objects: a.objects - b.objects });

// Types env.ts's StorageLedger namespace (durable-object-classes.ts says why this way round).
declare module "../durable-object-classes.ts" {
  interface DurableObjectClasses {
    StorageLedger: StorageLedger;
  }
}

export class StorageLedger extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Each key's lock: its R2 reads and table writes are never interleaved with another call's on it. */
  private readonly locks = new KeyLocks();
  /** A reconciliation in progress: settles and deletes wait for it. */
  private reconciling: Promise<void> | null = null;
  private firstCount: Promise<Reconciled> | null = null;
  private userId: string | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec("CREATE TABLE IF NOT EXISTS objects (key TEXT PRIMARY KEY, size INTEGER NOT NULL)");
    this.sql.exec("CREATE TABLE IF NOT EXISTS tickets (id TEXT PRIMARY KEY, key TEXT NOT NULL, bytes INTEGER NOT NULL, expires_at INTEGER NOT NULL)");
    this.sql.exec("CREATE INDEX IF NOT EXISTS tickets_by_key ON tickets (key)");
    this.sql.exec(`CREATE TABLE IF NOT EXISTS ledger (id INTEGER PRIMARY KEY CHECK (id = 1), user_id TEXT NOT NULL,
      bytes INTEGER NOT NULL, objects INTEGER NOT NULL, counted_at INTEGER, reconcile_at INTEGER)`);
  }

  /** What the user stores, charged as a quota check sees it (pending reservations included). */
  async usage(userId: string): Promise<Stored> {
    await this.ready(userId);
    return this.charged();
  }

  /**
   * Admits writes, all or none. An exact want is charged what it adds over its key's charge; a want of unknown
   * length gets min(its bound, its key's charge plus the room left) and is refused when that is nothing.
   */
  async reserve(userId: string, wants: Want[], limit: Stored): Promise<Reserved> {
    await this.ready(userId);
    for (const want of wants) this.assertOwned(want.key);
    const used = this.charged();
    const planned = new Map<string, number>();
    const tickets: Ticket[] = [];
    const adding = { bytes: 0, objects: 0 };
    for (const want of wants) {
      const recorded = this.sizeOf(want.key);
      const pending = this.sql.exec<{ bytes: number | null }>("SELECT max(bytes) AS bytes FROM tickets WHERE key = ?", want.key).one().bytes;
      const earlier = planned.get(want.key);
      const charge = Math.max(recorded ?? 0, pending ?? 0, earlier ?? 0);
      let bytes = want.bytes;
      if (!want.exact) {
        bytes = Math.min(want.bytes, Math.max(charge, limit.bytes - used.bytes - adding.bytes + charge));
        if (bytes <= 0 && want.bytes > 0) return { ok: false, used, adding: { bytes: null, objects: 0 } };
      }
      adding.bytes += Math.max(0, bytes - charge);
      if (recorded === null && pending === null && earlier === undefined) adding.objects++;
      planned.set(want.key, Math.max(earlier ?? 0, bytes));
      tickets.push({ id: crypto.randomUUID(), key: want.key, bytes });
    }
    const bytesFull = adding.bytes > 0 && used.bytes + adding.bytes > limit.bytes;
    const objectsFull = adding.objects > 0 && used.objects + adding.objects > limit.objects;
    if (bytesFull || objectsFull) return { ok: false, used, adding: { bytes: wants.every((w) => w.exact) ? adding.bytes : null, objects: adding.objects } };
    const expires = Date.now() + TICKET_TTL_MS;
    for (const t of tickets) this.sql.exec("INSERT INTO tickets (id, key, bytes, expires_at) VALUES (?, ?, ?, ?)", t.id, t.key, t.bytes, expires);
    await this.scheduleAlarm();
    return { ok: true, tickets, used };
  }

  /** Keeps a reservation alive; false when it already lapsed (and was settled), so its write must not land. */
  async renew(userId: string, ticketId: string): Promise<boolean> {
    await this.ready(userId);
    return this.sql.exec("UPDATE tickets SET expires_at = ? WHERE id = ?", Date.now() + TICKET_TTL_MS, ticketId).rowsWritten > 0;
  }

  /**
   * Writes ended (or failed): for each key the tickets name, records what R2 holds there now and drops those
   * tickets. One call settles a whole batch (a new project's files), each key under its own lock.
   */
  async settle(userId: string, tickets: Pick<Ticket, "id" | "key">[]): Promise<void> {
    await this.ready(userId);
    const byKey = new Map<string, Pick<Ticket, "id" | "key">[]>();
    for (const t of tickets) byKey.set(t.key, [...(byKey.get(t.key) ?? []), t]);
    for (const key of byKey.keys()) this.assertOwned(key);
    await Promise.all(
      [...byKey].map(([key, settled]) =>
        this.withLocks([key], async () => {
          const object = await this.env.FILES.head(key);
          this.record(key, object?.size ?? null);
          for (const t of settled) this.sql.exec("DELETE FROM tickets WHERE id = ?", t.id);
        }),
      ),
    );
    await this.scheduleAlarm();
  }

  /** Deletes the keys from R2 and the ledger; returns what the ledger had for them. */
  async remove(userId: string, keys: string[]): Promise<Stored> {
    await this.ready(userId);
    for (const key of keys) this.assertOwned(key);
    const unique = [...new Set(keys)];
    let gone: Stored = { bytes: 0, objects: 0 };
    for (let i = 0; i < unique.length; i += DELETE_BATCH) {
      const batch = unique.slice(i, i + DELETE_BATCH);
      await this.withLocks(batch, async () => {
        await this.env.FILES.delete(batch);
        for (const key of batch) {
          const size = this.sizeOf(key);
          if (size !== null) gone = plus(gone, { bytes: size, objects: 1 });
          this.record(key, null);
        }
      });
    }
    await this.scheduleAlarm();
    return gone;
  }

  /** Rebuilds the table from an R2 listing of the user's prefixes; returns the drift it corrected. */
  async reconcile(userId: string): Promise<Reconciled> {
    await this.ready(userId);
    return this.rebuild(userId);
  }

  /** Settles lapsed tickets, and reconciles when one is due. */
  async alarm(): Promise<void> {
    const row = this.row();
    if (!row) return;
    const lapsed = this.sql.exec<{ id: string; key: string }>("SELECT id, key FROM tickets WHERE expires_at <= ?", Date.now()).toArray();
    if (lapsed.length > 0) await this.settle(row.user_id, lapsed);
    if (row.reconcile_at !== null && row.reconcile_at <= Date.now()) {
      const { drift } = await this.rebuild(row.user_id);
      if (drift.bytes !== 0 || drift.objects !== 0) logEvent("warn", "storage.drift_corrected", { driftBytes: drift.bytes, driftObjects: drift.objects });
    }
    await this.scheduleAlarm();
  }

  private row(): LedgerRow | null {
    return this.sql.exec<LedgerRow>("SELECT user_id, bytes, objects, counted_at, reconcile_at FROM ledger WHERE id = 1").toArray()[0] ?? null;
  }

  /** The ledger belongs to one user; on its first use it counts what they already have in R2. */
  private async ready(userId: string): Promise<void> {
    const row = this.row();
    if (row && row.user_id !== userId) throw new Error("storage ledger used for another user");
    if (!row) this.sql.exec("INSERT INTO ledger (id, user_id, bytes, objects) VALUES (1, ?, 0, 0)", userId);
    if (row?.counted_at != null) return;
    // Concurrent first calls share one count; a failed one is tried again by the next call.
    this.firstCount ??= this.rebuild(userId).catch((err: unknown) => {
      this.firstCount = null;
      throw err;
    });
    await this.firstCount;
  }

  /** Keys outside the user's own prefixes are never accounted here (a bug, not a request to honour). */
  private assertOwned(key: string): void {
    this.userId ??= this.row()?.user_id ?? null;
    if (this.userId === null || !(key.startsWith(userProjectsPrefix(this.userId)) || key.startsWith(renderPrefix(this.userId)))) {
      throw new Error(`storage ledger: ${key} is not this user's`);
    }
  }

  private sizeOf(key: string): number | null {
    return this.sql.exec<{ size: number }>("SELECT size FROM objects WHERE key = ?", key).toArray()[0]?.size ?? null;
  }

  private recorded(): Stored {
    const row = this.row();
    return { bytes: row?.bytes ?? 0, objects: row?.objects ?? 0 };
  }

  /** Recorded totals plus what pending reservations charge beyond each key's recorded size. */
  private charged(): Stored {
    const pending = this.sql
      .exec<{ bytes: number; objects: number }>(
        `SELECT coalesce(sum(max(0, t.bytes - coalesce(o.size, 0))), 0) AS bytes, coalesce(sum(o.key IS NULL), 0) AS objects
         FROM (SELECT key, max(bytes) AS bytes FROM tickets GROUP BY key) t LEFT JOIN objects o ON o.key = t.key`,
      )
      .one();
    return plus(this.recorded(), pending);
  }

  /** Sets a key's recorded size (null: the key is gone), moving the totals by the difference. */
  private record(key: string, size: number | null): void {
    const before = this.sizeOf(key);
    if (size === null && before === null) return;
    if (size === null) this.sql.exec("DELETE FROM objects WHERE key = ?", key);
    else this.sql.exec("INSERT OR REPLACE INTO objects (key, size) VALUES (?, ?)", key, size);
    const change = { bytes: (size ?? 0) - (before ?? 0), objects: (size === null ? 0 : 1) - (before === null ? 0 : 1) };
    this.sql.exec(
      "UPDATE ledger SET bytes = bytes + ?, objects = objects + ?, reconcile_at = coalesce(reconcile_at, ?) WHERE id = 1",
      change.bytes,
      change.objects,
      Date.now() + RECONCILE_AFTER_MS,
    );
  }

  /** Runs `fn` holding the locks of `keys` (key-locks.ts), once no reconciliation is under way. */
  private async withLocks<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
    while (this.reconciling) await this.reconciling;
    return this.locks.run(keys, fn);
  }

  /**
   * Waits out every key lock, then brings the table to R2's listing; settles and deletes wait meanwhile. Only the
   * rows that differ from R2 are written (a changed size, a key R2 has and the table lacks, a key the table has and
   * R2 lacks): a ledger in step with R2 writes nothing but its totals, however many files the user has.
   */
  private async rebuild(userId: string): Promise<Reconciled> {
    while (this.reconciling) await this.reconciling;
    let result: Reconciled | null = null;
    const run = (async () => {
      await this.locks.idle();
      const listed = await listStored(this.env.FILES, userId);
      const before = this.recorded();
      const after = { bytes: listed.reduce((sum, o) => sum + o.size, 0), objects: listed.length };
      this.ctx.storage.transactionSync(() => {
        const recorded = new Map<string, number>();
        for (const row of this.sql.exec<{ key: string; size: number }>("SELECT key, size FROM objects")) recorded.set(row.key, row.size);
        let rowsWritten = 0;
        for (const o of listed) {
          const size = recorded.get(o.key);
          recorded.delete(o.key);
          if (size === o.size) continue;
          const write = size === undefined
            ? this.sql.exec("INSERT INTO objects (key, size) VALUES (?, ?)", o.key, o.size)
            : this.sql.exec("UPDATE objects SET size = ? WHERE key = ?", o.size, o.key);
          rowsWritten += write.rowsWritten;
        }
        // What is left was recorded but is no longer in R2.
        for (const key of recorded.keys()) rowsWritten += this.sql.exec("DELETE FROM objects WHERE key = ?", key).rowsWritten;
        this.sql.exec("UPDATE ledger SET bytes = ?, objects = ?, counted_at = ?, reconcile_at = NULL WHERE id = 1", after.bytes, after.objects, Date.now());
        result = { before, after, drift: minus(after, before), rowsWritten };
      });
    })();
    // Other rebuilds only wait for this one to end; its error is this call's, thrown by the await below.
    this.reconciling = settled(run);
    try {
      await run;
    } finally {
      this.reconciling = null;
    }
    return result!;
  }

  /** The alarm wakes for the first lapsing ticket or the due reconciliation, whichever is sooner. */
  private async scheduleAlarm(): Promise<void> {
    const ticket = this.sql.exec<{ at: number | null }>("SELECT min(expires_at) AS at FROM tickets").one().at;
    const due = [ticket, this.row()?.reconcile_at ?? null].filter((at): at is number => at !== null);
    if (due.length === 0) return;
    const at = Math.min(...due);
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}

/** The ledger of one user. */
export function storageLedgerOf(env: Env, userId: string) {
  return env.STORAGE_LEDGER.get(env.STORAGE_LEDGER.idFromName(userId));
}
