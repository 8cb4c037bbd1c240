// Reads a local studio's D1 database from its data folder (wrangler's SQLite file), read-only: what an end-to-end
// test asserts the API does not show, such as whether any job was queued.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** The number of rows in the studio's job queue (every job ever queued, of every kind). */
export function jobRowCount(dataDir: string): number {
  const dir = join(dataDir, "wrangler", "v3", "d1", "miniflare-D1DatabaseObject");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".sqlite"))) {
    const db = new DatabaseSync(join(dir, file), { readOnly: true });
    try {
      const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'jobs'").get();
      if (table) return (db.prepare("SELECT count(*) AS n FROM jobs").get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  throw new Error(`no D1 database with a jobs table in ${dir}`);
}
