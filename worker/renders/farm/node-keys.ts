// Render node keys: issued by an admin, shown once, stored as SHA-256, listed with when each node was last heard
// from, revoked by deleting the row (the node's next call is 401). A node key lets its holder claim any user's
// work and read those projects' files, so only admins (ADMIN_USER_IDS) manage them; there is no per-user key.
// At most NODE_KEYS_MAX live keys; the cap and the insert are one statement, so parallel requests cannot pass it.
import { desc, eq, sql } from "drizzle-orm";
import { randomSecret, sha256Hex, TOKEN_PREFIX } from "../../auth/tokens.ts";
import type { Db } from "../../db/client.ts";
import { renderNodes } from "../../db/schema/renders.ts";
import { conflict } from "../../http/errors.ts";
import { NODE_SILENCE_MS } from "./node-presence.ts";

export const NODE_KEYS_MAX = 100;
/** Letters, digits, '.', '_', '-': the name shows in logs (`segment 3: node <name> …`) and in claims. */
export const NODE_NAME = /^[\w.-]{1,60}$/;

export interface NodeKeyRecord {
  id: string;
  name: string;
  createdAt: string;
  /** When a node with this key last claimed or reported; null for a key never used. */
  lastSeenAt: string | null;
  /** Heard from within the last 30 s (a live node long-polls for at most 25 s). */
  online: boolean;
}

type NodeRow = typeof renderNodes.$inferSelect;

export function nodeKeyRecord(row: NodeRow, now = Date.now()): NodeKeyRecord {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.createdAt).toISOString(),
    lastSeenAt: row.lastSeenAt === null ? null : new Date(row.lastSeenAt).toISOString(),
    online: row.lastSeenAt !== null && now - row.lastSeenAt < NODE_SILENCE_MS,
  };
}

export async function issueNodeKey(db: Db, name: string): Promise<{ nodeKey: NodeKeyRecord; key: string }> {
  const key = randomSecret(TOKEN_PREFIX.node);
  const row: NodeRow = { id: crypto.randomUUID(), name, keyHash: await sha256Hex(key), createdAt: Date.now(), lastSeenAt: null };
  const inserted = await db.run(sql`
    INSERT INTO ${renderNodes} (id, name, key_hash, created_at)
    SELECT ${row.id}, ${row.name}, ${row.keyHash}, ${row.createdAt}
    WHERE (SELECT count(*) FROM ${renderNodes}) < ${NODE_KEYS_MAX}`);
  if (inserted.meta.changes !== 1) {
    throw conflict(`too many render node keys: at most ${NODE_KEYS_MAX}; revoke one (DELETE /api/node-keys/:id) to issue another`);
  }
  return { nodeKey: nodeKeyRecord(row), key };
}

export async function listNodeKeys(db: Db): Promise<NodeKeyRecord[]> {
  const rows = await db.select().from(renderNodes).orderBy(desc(renderNodes.createdAt)).all();
  const now = Date.now();
  return rows.map((row) => nodeKeyRecord(row, now));
}

/** True when the key existed. */
export async function revokeNodeKey(db: Db, id: string): Promise<boolean> {
  const gone = await db.delete(renderNodes).where(eq(renderNodes.id, id)).returning({ id: renderNodes.id });
  return gone.length > 0;
}
