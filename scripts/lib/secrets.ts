// Local secrets for `npm start`: made once, kept in the local data folder, so tokens survive restarts.
import { randomBytes, createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LocalSecrets {
  tokenSecret: string;
  nodeKey?: string;
}

export function loadLocalSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as LocalSecrets;
  mkdirSync(dataDir, { recursive: true });
  const secrets: LocalSecrets = { tokenSecret: randomBytes(32).toString("base64url") };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export function saveLocalSecrets(dataDir: string, secrets: LocalSecrets): void {
  writeFileSync(join(dataDir, "secrets.json"), JSON.stringify(secrets, null, 2), { mode: 0o600 });
}

/** A render-node key (prefix stn_) and the SQL that registers its hash. The key itself is never stored by the Worker. */
export function newNodeKey(name: string): { key: string; sql: string } {
  const key = "stn_" + randomBytes(32).toString("base64url");
  const hash = createHash("sha256").update(key).digest("hex");
  const id = randomBytes(8).toString("hex");
  const safeName = name.replace(/'/g, "''");
  return {
    key,
    sql: `INSERT INTO render_nodes (id, name, key_hash, created_at) VALUES ('${id}', '${safeName}', '${hash}', ${Date.now()});`,
  };
}
