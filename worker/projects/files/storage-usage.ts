// The storage quota: what one user may keep in R2, project files and rendered videos together: at most
// MAX_STORAGE_BYTES bytes (default 5 GiB) in at most MAX_STORED_FILES objects (default 100,000; empty files and
// directories cost no bytes but are objects all the same). Past either a write is a 413 `storage_quota_exceeded`
// naming what is used and the limits, and nothing is written; deleting files, projects or renders makes room.
//
// The count is the user's StorageLedger's (worker/storage/storage-ledger.ts), and every write of a user's object
// goes through storeWithinQuota (or storeAllWithinQuota): room is reserved before any byte is kept (the exact
// length, or for a body of unknown length the most it may store: the file limit or the room left, whichever is
// less, past which the writer stops with the same 413), and the ledger settles the write from what R2 then holds.
// Deletes go through removeStored. So concurrent writes, overwrites and deletes can neither pass the quota
// together nor credit the same bytes twice.
import { describeBytes } from "../../../core/units/bytes.ts";
import { configOf } from "../../config/config-of.ts";
import type { Env } from "../../env.ts";
import { ApiError } from "../../http/errors.ts";
import type { Stored, Ticket } from "../../storage/ledger-types.ts";
import { storageLedgerOf, TICKET_TTL_MS } from "../../storage/storage-ledger.ts";
import { logEvent } from "../../http/log.ts";

export type { Stored } from "../../storage/ledger-types.ts";

/** A writer renews its reservation this often while bytes keep coming. */
const RENEW_EVERY_MS = TICKET_TTL_MS / 4;

/** One user's quota: MAX_STORAGE_BYTES and MAX_STORED_FILES. */
export function storageQuota(env: Env): Stored {
  const config = configOf(env);
  return { bytes: config.MAX_STORAGE_BYTES, objects: config.MAX_STORED_FILES };
}

function quotaExceeded(used: Stored, limit: Stored, adding: { bytes: number | null; objects: number }): ApiError {
  const full = used.objects + adding.objects > limit.objects;
  const what = full
    ? `you store ${used.objects} files of your ${limit.objects} (project files, directories and renders)`
    : `you store ${describeBytes(used.bytes)} of your ${describeBytes(limit.bytes)} (project files and renders)`;
  const more = full ? "another file" : adding.bytes === null ? "this write" : `${describeBytes(adding.bytes)} more`;
  return new ApiError(
    413,
    `storage quota exceeded: ${what}; ${more} would not fit. Delete files, projects or renders to make room`,
    { used: used.bytes, limit: limit.bytes, files: used.objects, fileLimit: limit.objects },
    {},
    "storage_quota_exceeded",
  );
}

/** What the user stores now (writes in flight counted at what they reserved). */
export function storageUsed(env: Env, userId: string): Promise<Stored> {
  return storageLedgerOf(env, userId).usage(userId);
}

/** How much one write stores: exactly `exact` bytes, or at most `atMost` when its length is known only at its end. */
export type WriteSize = { exact: number } | { atMost: number };

/** Room reserved for one write: the writer keeps within `bytes` and holds the reservation until its bytes land. */
export interface Reservation {
  /** The most bytes the write may store. */
  bytes: number;
  /** Renews the reservation right before the write's last bytes are kept (reserving again should it have lapsed). */
  hold(): Promise<void>;
  /** hold(), when the last renewal is old enough to need it; otherwise nothing. */
  keepAlive(): Promise<void>;
  /** The quota's 413 for a write that turned out longer than it reserved. */
  exceeded(): ApiError;
}

/**
 * Writes one object of the user's within their quota: room for `size` is reserved (or the quota's 413 thrown and
 * nothing written), `write` stores it within the reservation, and the ledger then records what R2 holds at `key`.
 */
export async function storeWithinQuota<T>(env: Env, userId: string, key: string, size: WriteSize, write: (reservation: Reservation) => Promise<T>): Promise<T> {
  const ledger = storageLedgerOf(env, userId);
  const limit = storageQuota(env);
  const want = "exact" in size ? { key, bytes: size.exact, exact: true } : { key, bytes: size.atMost, exact: false };
  const reserved = await ledger.reserve(userId, [want], limit);
  if (!reserved.ok) throw quotaExceeded(reserved.used, limit, reserved.adding);
  const tickets: Ticket[] = [...reserved.tickets];
  const bytes = tickets[0]!.bytes;
  let heldAt = Date.now();
  const reservation: Reservation = {
    bytes,
    async hold() {
      heldAt = Date.now();
      if (await ledger.renew(userId, tickets.at(-1)!.id)) return;
      // It lapsed (a stalled upload) and was settled: the bytes may land only if there is room for them again.
      const again = await ledger.reserve(userId, [{ key, bytes, exact: true }], limit);
      if (!again.ok) throw quotaExceeded(again.used, limit, again.adding);
      tickets.push(...again.tickets);
    },
    async keepAlive() {
      if (Date.now() - heldAt >= RENEW_EVERY_MS) await reservation.hold();
    },
    exceeded: () => quotaExceeded(reserved.used, limit, { bytes: null, objects: 0 }),
  };
  try {
    return await write(reservation);
  } finally {
    await settle(ledger, userId, tickets);
  }
}

/** Settles writes' tickets in one call. Should the ledger not answer, the tickets lapse and its alarm settles them alike. */
async function settle(ledger: ReturnType<typeof storageLedgerOf>, userId: string, tickets: Ticket[]): Promise<void> {
  try {
    await ledger.settle(userId, tickets.map(({ id, key }) => ({ id, key })));
  } catch (err) {
    logEvent("error", "storage.settle_failed", { retry: "alarm when the reservation lapses", error: err });
  }
}

/** Writes several objects of the user's of known sizes (a new project), all admitted or none. */
export async function storeAllWithinQuota<T>(env: Env, userId: string, objects: { key: string; bytes: number }[], write: () => Promise<T>): Promise<T> {
  const ledger = storageLedgerOf(env, userId);
  const limit = storageQuota(env);
  const reserved = await ledger.reserve(userId, objects.map((o) => ({ ...o, exact: true })), limit);
  if (!reserved.ok) throw quotaExceeded(reserved.used, limit, reserved.adding);
  try {
    return await write();
  } finally {
    await settle(ledger, userId, reserved.tickets);
  }
}

/** Deletes the user's objects from R2 and their count; returns what was removed. */
export function removeStored(env: Env, userId: string, keys: string[]): Promise<Stored> {
  if (keys.length === 0) return Promise.resolve({ bytes: 0, objects: 0 });
  return storageLedgerOf(env, userId).remove(userId, keys);
}

/**
 * What a write of scratch space works within: segment files of a split render wait for the join under seg/ and are
 * removed when the render ends, so they are not counted (nor listed by the ledger's reconciliation).
 */
export function scratchSpace(bytes: number): Reservation {
  return { bytes, hold: async () => {}, keepAlive: async () => {}, exceeded: () => new ApiError(413, `scratch space is limited to ${bytes} bytes`) };
}
