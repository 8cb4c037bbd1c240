// The idea board: ideas, their votes, enrichments (with votes) and comments; groups; bot keys; the fixed-window
// rate-limit counters; research records. Authors are "user:<id>" or "bot:<id>", so one column says who and whether
// it was a bot, and a bot and a user can never collide. Voters are always the person ("user:<id>"): a bot votes as
// the user who owns it, so one person's vote counts once however many bot keys they hold.
import { sqliteTable, text, integer, index, primaryKey, uniqueIndex } from "drizzle-orm/sqlite-core";

export const ideaGroups = sqliteTable("idea_groups", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const ideas = sqliteTable(
  "ideas",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    body: text("body").notNull(),
    source: text("source"),
    name: text("name").notNull(),
    /** "user:<id>" or "bot:<id>" */
    author: text("author").notNull(),
    isBot: integer("is_bot", { mode: "boolean" }).notNull(),
    groupSlug: text("group_slug").references(() => ideaGroups.slug),
    /** "open" | "building" | "shipped" */
    status: text("status").notNull().default("open"),
    // Counts kept on the row (recounted on every change) so sorting by votes needs no join.
    votes: integer("votes").notNull().default(0),
    enrichmentCount: integer("enrichment_count").notNull().default(0),
    commentCount: integer("comment_count").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    // Canonical stems of title and body (core/similarity indexStemsOf), the columns the ideas_fts index reads.
    // Kept on the row so the index follows it through triggers, in the same transaction as the insert.
    titleTerms: text("title_terms").notNull().default(""),
    bodyTerms: text("body_terms").notNull().default(""),
  },
  (t) => [
    index("ideas_created").on(t.createdAt),
    index("ideas_votes").on(t.votes, t.createdAt),
    index("ideas_group").on(t.groupSlug, t.createdAt),
    index("ideas_status").on(t.status, t.createdAt),
  ],
);

export const ideaVotes = sqliteTable(
  "idea_votes",
  {
    ideaId: integer("idea_id").notNull().references(() => ideas.id, { onDelete: "cascade" }),
    /** The person: "user:<id>" (a bot's vote is its owner's). */
    voter: text("voter").notNull(),
    /** Who cast it: "user:<id>" or "bot:<id>" (the metrics' active humans and bots). */
    castBy: text("cast_by"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.ideaId, t.voter] }), index("idea_votes_voter").on(t.voter)],
);

export const enrichments = sqliteTable(
  "enrichments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ideaId: integer("idea_id").notNull().references(() => ideas.id, { onDelete: "cascade" }),
    /** "note" | "use_case" | "angle" | "constraint" */
    kind: text("kind").notNull(),
    body: text("body").notNull(),
    name: text("name").notNull(),
    author: text("author").notNull(),
    isBot: integer("is_bot", { mode: "boolean" }).notNull(),
    votes: integer("votes").notNull().default(0),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("enrichments_idea").on(t.ideaId, t.createdAt)],
);

export const enrichmentVotes = sqliteTable(
  "enrichment_votes",
  {
    enrichmentId: integer("enrichment_id").notNull().references(() => enrichments.id, { onDelete: "cascade" }),
    /** The person: "user:<id>" (a bot's vote is its owner's). */
    voter: text("voter").notNull(),
    /** Who cast it: "user:<id>" or "bot:<id>". */
    castBy: text("cast_by"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.enrichmentId, t.voter] }), index("enrichment_votes_voter").on(t.voter)],
);

export const ideaComments = sqliteTable(
  "idea_comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ideaId: integer("idea_id").notNull().references(() => ideas.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    name: text("name").notNull(),
    author: text("author").notNull(),
    isBot: integer("is_bot", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("idea_comments_idea").on(t.ideaId, t.createdAt)],
);

/** Bot keys: only the SHA-256 of the key is kept. Revoking deletes the row, which kills the key at once. */
export const bots = sqliteTable(
  "bots",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("bots_key_hash").on(t.keyHash), index("bots_owner").on(t.ownerId)],
);

/** Fixed-window write counters, one row per caller. */
export const rateLimits = sqliteTable("rate_limits", {
  caller: text("caller").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

export const researchRecords = sqliteTable(
  "research_records",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull(),
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    summary: text("summary"),
    bodyMd: text("body_md").notNull(),
    /** JSON array of strings */
    lines: text("lines").notNull(),
    /** Display name of the writer who created the record; never taken from a request body. */
    author: text("author").notNull(),
    /** The person who owns the record (the creating user, or the owner of the creating bot); null for records from
     * before ownership existed, which only admins may change. */
    ownerId: text("owner_id"),
    /** JSON, or null */
    sources: text("sources"),
    /** JSON, or null */
    related: text("related"),
    verifiedAt: text("verified_at"),
    updatedAt: text("updated_at").notNull(),
    coverUrl: text("cover_url"),
  },
  (t) => [uniqueIndex("research_slug").on(t.slug), index("research_kind").on(t.kind, t.updatedAt)],
);
