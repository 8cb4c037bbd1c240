// Bytes and objects each user stores (project files and rendered videos), so a write is checked against the quota
// without listing R2 (worker/files/storage-usage.ts). R2 stays the truth: a missing row is counted from R2.
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

export const storageUsage = sqliteTable("storage_usage", {
  userId: text("user_id").primaryKey(),
  bytes: integer("bytes").notNull(),
  /** Objects: files, directory markers and renders. */
  objects: integer("objects").notNull(),
  /** When the row was last counted from R2 (ms); writes and deletes move `bytes` in between. */
  countedAt: integer("counted_at").notNull(),
});
