// Users, their personal API token (as a hash), and dashboard sessions (as hashes).
import { sqliteTable, text, integer, uniqueIndex, index } from "drizzle-orm/sqlite-core";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email"),
    avatarUrl: text("avatar_url"),
    /** "github" | "google" | "dev" */
    provider: text("provider").notNull(),
    providerUserId: text("provider_user_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("users_provider_identity").on(t.provider, t.providerUserId)],
);

/** One personal token per user. The token is HMAC(TOKEN_SECRET, id.nonce); only its SHA-256 is stored. */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    userId: text("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
    nonce: text("nonce").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("api_tokens_hash").on(t.tokenHash)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_user").on(t.userId)],
);
