// A user written into a studio's data folder before the studio starts, as a first sign-in would have made them: a
// file that needs an admin (ADMIN_USER_IDS names user ids, read once at the start) knows the id before the start
// instead of signing the admin in on a first studio and starting a second one naming them.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { deriveUserToken, randomSecret, sha256Hex } from "../../worker/auth/tokens.ts";
import { loadLocalSecrets } from "../../scripts/lib/secrets.ts";

/** The studio's D1 database file in a data folder (wrangler's SQLite file of the D1 object), the one with `users`. */
function d1File(dataDir: string): string {
  const dir = join(dataDir, "wrangler", "v3", "d1", "miniflare-D1DatabaseObject");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".sqlite"))) {
    const db = new DatabaseSync(join(dir, file), { readOnly: true });
    try {
      if (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'users'").get()) return join(dir, file);
    } finally {
      db.close();
    }
  }
  throw new Error(`no D1 database with a users table in ${dir}`);
}

/**
 * Writes the user development sign-in as `name` finds (provider "dev", the name in lower case, as
 * worker/auth/sign-in-routes.ts looks it up), with a personal token the way worker/auth/users.ts makes one (a nonce,
 * the token's hash under the folder's TOKEN_SECRET). The studio must not be running on the folder. Returns their id.
 */
export async function seedDevUser(dataDir: string, name: string): Promise<string> {
  const id = crypto.randomUUID();
  const nonce = randomSecret();
  const tokenHash = await sha256Hex(await deriveUserToken(loadLocalSecrets(dataDir).tokenSecret, id, nonce));
  const now = Date.now();
  const db = new DatabaseSync(d1File(dataDir));
  try {
    db.prepare("INSERT INTO users (id, name, provider, provider_user_id, created_at) VALUES (?, ?, 'dev', ?, ?)").run(id, name, name.toLowerCase(), now);
    db.prepare("INSERT INTO api_tokens (user_id, nonce, token_hash, created_at) VALUES (?, ?, ?, ?)").run(id, nonce, tokenHash, now);
  } finally {
    db.close();
  }
  return id;
}
