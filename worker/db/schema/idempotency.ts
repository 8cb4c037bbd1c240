// Idempotency-Key records: the first answer to a create, replayed to the same caller for the same key (24 h).
import { sqliteTable, text, integer, primaryKey, index } from "drizzle-orm/sqlite-core";

export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    /** "user:<id>" or "bot:<id>": keys are per caller, so two callers' equal keys never meet. */
    caller: text("caller").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused, not replayed. */
    fingerprint: text("fingerprint").notNull(),
    /** Null while the first request is still being answered. */
    status: integer("status"),
    body: text("body"),
    contentType: text("content_type"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.caller, t.key] }), index("idempotency_keys_created").on(t.createdAt)],
);
