// Bot keys of the idea board: issued by a signed-in user, shown once, stored as SHA-256, revoked by deleting the
// row. Every function takes the owner's id, so one user can neither list nor revoke another's bots. A person holds
// at most BOT_KEYS_PER_PERSON live keys (revoking frees a slot); the cap and the insert are one statement, so
// parallel requests cannot slip past it.
import { and, desc, eq, sql } from "drizzle-orm";
import { registerCredentialLookup } from "../auth/resolvers.ts";
import { randomSecret, sha256Hex, TOKEN_PREFIX } from "../auth/tokens.ts";
import type { Db } from "../db/client.ts";
import type { BoardWrite } from "./board-batch.ts";
import { bots } from "../db/schema/ideas.ts";
import { conflict } from "../http/errors.ts";

export const BOT_KEYS_PER_PERSON = 5;

export interface BotRecord {
  id: string;
  name: string;
  createdAt: string;
}

type BotRow = typeof bots.$inferSelect;

export function botRecord(row: BotRow): BotRecord {
  return { id: row.id, name: row.name, createdAt: new Date(row.createdAt).toISOString() };
}

export async function issueBotKey({ db, batch }: BoardWrite, ownerId: string, name: string): Promise<{ bot: BotRecord; key: string }> {
  const key = randomSecret(TOKEN_PREFIX.bot);
  const row: BotRow = { id: crypto.randomUUID(), ownerId, name, keyHash: await sha256Hex(key), createdAt: Date.now() };
  // The select names the columns in the table's order: id, owner_id, name, key_hash, created_at.
  const [inserted] = await batch([
    db
      .insert(bots)
      .select(
        sql`SELECT ${row.id}, ${row.ownerId}, ${row.name}, ${row.keyHash}, ${row.createdAt}
            WHERE (SELECT count(*) FROM ${bots} WHERE owner_id = ${ownerId}) < ${BOT_KEYS_PER_PERSON}`,
      )
      .returning({ id: bots.id }),
  ]);
  if (inserted.length !== 1) {
    throw conflict(`too many bot keys: at most ${BOT_KEYS_PER_PERSON} per person; revoke one (DELETE /api/bots/:id) to issue another`, {}, "too_many_bot_keys");
  }
  return { bot: botRecord(row), key };
}

export async function listBots(db: Db, ownerId: string): Promise<BotRecord[]> {
  const rows = await db.select().from(bots).where(eq(bots.ownerId, ownerId)).orderBy(desc(bots.createdAt)).all();
  return rows.map(botRecord);
}

/** True when the bot existed and belonged to the owner. */
export async function revokeBot({ db, batch }: BoardWrite, ownerId: string, id: string): Promise<boolean> {
  const [gone] = await batch([db.delete(bots).where(and(eq(bots.id, id), eq(bots.ownerId, ownerId))).returning({ id: bots.id })]);
  return gone.length > 0;
}

registerCredentialLookup("bot", {
  sql: "SELECT id, name, owner_id AS ownerId FROM bots WHERE key_hash = ?1",
  params: (hash) => [hash],
  callerOf: (row) => ({ bot: { id: String(row.id), name: String(row.name), ownerId: String(row.ownerId) }, credential: "bot" }),
  identityOf: (caller) => (caller.bot ? `${caller.bot.id}/${caller.bot.ownerId}` : undefined),
});
