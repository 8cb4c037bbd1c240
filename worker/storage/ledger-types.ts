// What the Worker and a user's StorageLedger (storage-ledger.ts) tell each other: plain data, so it crosses the
// Durable Object RPC boundary as is.

/** Bytes and objects: what a user stores, a limit, or a change to either. */
export interface Stored {
  bytes: number;
  objects: number;
}

/** One write to reserve room for: exactly `bytes`, or (`exact: false`, length not known yet) at most `bytes`. */
export interface Want {
  key: string;
  bytes: number;
  exact: boolean;
}

/** A reservation the Worker settles once its write is done (or failed): `bytes` is the most it may store. */
export interface Ticket {
  id: string;
  key: string;
  bytes: number;
}

/**
 * The answer to a reservation: its tickets and what was in use before it, or a refusal with what was in use and
 * what the writes would have added (`bytes` null: a length not known up front).
 */
export type Reserved =
  | { ok: true; tickets: Ticket[]; used: Stored }
  | { ok: false; used: Stored; adding: { bytes: number | null; objects: number } };

/**
 * What a reconciliation found: the ledger's count before, R2's after, the difference it corrected, and the rows of
 * the ledger's table it wrote to correct it (only keys whose size differs from R2's: none when nothing drifted).
 */
export interface Reconciled {
  before: Stored;
  after: Stored;
  drift: Stored;
  rowsWritten: number;
}
